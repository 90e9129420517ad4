//! The FULL rules on the standard 8x8 board in one `u64`, with constant shifts and masks.
//!
//! Bit `row * 8 + col` as everywhere; the generic rules code switches to these functions
//! when the board is 8x8, whatever the width of the bit set.

/// Cells that may be inside a run of discs on a line that moves sideways: not in the first or
/// last column.
const SIDEWAYS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The moves of `me` that close runs of `opp` along one line, both ways: `dir` is the shift of
/// one step and `pro` the opponent discs that may be inside a run on that line.
#[inline(always)]
fn moves_along(me: u64, pro: u64, dir: u32) -> u64 {
    let mut up = pro & (me << dir);
    let mut down = pro & (me >> dir);
    up |= pro & (up << dir);
    down |= pro & (down >> dir);
    let pro_up = pro & (pro << dir);
    let pro_down = pro_up >> dir;
    up |= pro_up & (up << (2 * dir));
    down |= pro_down & (down >> (2 * dir));
    up |= pro_up & (up << (2 * dir));
    down |= pro_down & (down >> (2 * dir));
    (up << dir) | (down >> dir)
}

/// Every empty cell where `me` may play.
#[inline(always)]
#[must_use]
pub fn legal_moves(me: u64, opp: u64) -> u64 {
    let sideways = opp & SIDEWAYS;
    (moves_along(me, sideways, 1)
        | moves_along(me, opp, 8)
        | moves_along(me, sideways, 7)
        | moves_along(me, sideways, 9))
        & !(me | opp)
}

/// The cells beyond a square in each direction: towards higher indices first (E, S, SE, SW),
/// then towards lower ones (W, N, NW, NE). One cache line per square.
#[repr(align(64))]
struct Rays([u64; 8]);

const fn ray(square: usize, d_row: i32, d_col: i32) -> u64 {
    let mut row = (square / 8) as i32 + d_row;
    let mut col = (square % 8) as i32 + d_col;
    let mut bits = 0;
    while row >= 0 && row < 8 && col >= 0 && col < 8 {
        bits |= 1 << (row * 8 + col);
        row += d_row;
        col += d_col;
    }
    bits
}

static RAYS: [Rays; 64] = {
    let mut table = [const { Rays([0; 8]) }; 64];
    let mut square = 0;
    while square < 64 {
        table[square] = Rays([
            ray(square, 0, 1),
            ray(square, 1, 0),
            ray(square, 1, 1),
            ray(square, 1, -1),
            ray(square, 0, -1),
            ray(square, -1, 0),
            ray(square, -1, -1),
            ray(square, -1, 1),
        ]);
        square += 1;
    }
    table
};

/// The discs of `opp` that a move of `me` at the empty cell `square` flips.
///
/// Towards higher indices the first cell of a ray that is not an opponent disc is found by a
/// carry: every bit below the ray, and every opponent disc on it, is set, so adding one ripples
/// up to that cell. Towards lower indices it is the highest such cell: those cells are spread
/// along the ray's direction (three doubling shifts), so that every cell at or beyond the
/// first is set and the first is the one whose predecessor is not. The run before it is
/// flipped when that cell holds a disc of `me`. (The four rays of each half are one vector
/// operation on x86-64-v3; this spreading took FFO #40-#49 6% faster than finding the highest
/// cell with a leading-zero count, which the vector unit has no instruction for.)
#[inline(always)]
#[must_use]
pub fn flips(me: u64, opp: u64, square: u32) -> u64 {
    // `& 63`: a square is below 64, and the mask lets the compiler drop the bounds check.
    let rays = &RAYS[(square & 63) as usize].0;
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let outflank = (opp | !ray).wrapping_add(1) & ray & me;
        flipped |= outflank.wrapping_sub(u64::from(outflank != 0)) & ray;
    }
    for (&ray, step) in rays[4..].iter().zip([1, 8, 9, 7]) {
        // Spreading only moves a cell further along the ray, or off it for good.
        let stoppers = ray & !opp;
        let mut beyond = stoppers | (stoppers >> step);
        beyond |= beyond >> (2 * step);
        beyond |= beyond >> (4 * step);
        let first = stoppers & !(beyond >> step) & me;
        flipped |= ray & !beyond & 0u64.wrapping_sub(u64::from(first != 0));
    }
    flipped
}
