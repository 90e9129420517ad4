//! The data files of `othello train`: their whole games read and checked, and a file opened
//! to append games to.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use othello_engine::train::data::{data_bytes, read_data};
use othello_engine::train::{DATA_MAGIC, Data, DataError, Sample};
use othello_io::atomic::write_atomic;

use super::error::{TrainError, file_error};

/// The whole games of the data file at `path`, every record checked (read in batches).
pub(super) fn read_data_file(path: &Path) -> Result<Data, TrainError> {
    let file = File::open(path).map_err(file_error(path))?;
    read_data(file).map_err(|source| match source {
        DataError::Read(source) => TrainError::File {
            path: path.to_owned(),
            source,
        },
        source => TrainError::Data {
            path: path.to_owned(),
            source,
        },
    })
}

/// The samples of the whole games in data files, in order; at least one game.
pub(super) fn read_games(paths: &[PathBuf]) -> Result<Vec<Sample>, TrainError> {
    let mut samples = Vec::new();
    for path in paths {
        samples.extend(read_data_file(path)?.samples);
    }
    if samples.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(TrainError::NoGames {
            paths: names.join(", "),
        });
    }
    Ok(samples)
}

/// Opens a data file to append games to and counts the whole games it holds. A missing or
/// empty file is created with the header; a file of self-play data loses the partial game an
/// interrupted run may have left at its end; one written before the header existed gets the
/// header (rewritten atomically, once). Any other file is refused and left as it is.
pub(super) fn open_data(path: &Path) -> Result<(File, u64), TrainError> {
    let data = match std::fs::metadata(path) {
        Ok(_) => read_data_file(path)?,
        Err(error) if error.kind() == io::ErrorKind::NotFound => Data::default(),
        Err(source) => return Err(file_error(path)(source)),
    };
    let whole = if data.headed && data.whole_bytes >= DATA_MAGIC.len() as u64 {
        data.whole_bytes
    } else {
        let bytes = data_bytes(&data.samples);
        write_atomic(path, &bytes).map_err(file_error(path))?;
        bytes.len() as u64
    };
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(file_error(path))?;
    let length = file.metadata().map_err(file_error(path))?.len();
    if length > whole {
        // A game cut short by an interrupted run: drop it, it is made again.
        file.set_len(whole).map_err(file_error(path))?;
    }
    Ok((file, data.games()))
}
