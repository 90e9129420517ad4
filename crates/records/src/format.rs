//! The names of the record formats: [`Format`]. What the crate knows of each (its
//! [`FormatSpec`](crate::FormatSpec)) and the methods that look a format up are in the table of
//! formats (`registry`), which sits above the formats' own modules.

/// The formats records are read from and written to. What the crate knows of each one is its
/// [`FormatSpec`](crate::FormatSpec) ([`Format::spec`]), and [`Format::ALL`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Moves as squares: `f5d6c3`, one game per line.
    MoveList,
    /// The Generic Game Format of the GGS server and `NBoard`.
    Ggf,
    /// One position per line, as Edax and the FFO suite write them.
    Obf,
    /// The console protocol's input: header, grid, one `ROW COL` line per move.
    Protocol,
    /// The French federation's binary game database.
    Wthor,
}
