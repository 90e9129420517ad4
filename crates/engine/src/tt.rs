//! The transposition table: a fixed-size, lock-free hash table, shared by the search threads
//! (the main one) or a thread's own (the solver's small one for its last sorted empties).
//!
//! Each slot is two atomic words, `check = key ^ data` and `data`, so a slot torn by two
//! threads writing at once fails its check and reads as a miss (the "xor trick"). Slots come in
//! buckets of two; a store replaces the slot holding the same position, else the shallower one.
//! The engine clears the table before every search: each entry carries the generation (the
//! search) that stored it, and clearing starts a new generation, so that older entries read as
//! empty slots without the whole table being written (it is, once every 255 searches, when
//! the generations run out).

use std::alloc::{Layout, alloc_zeroed};
use std::sync::atomic::{AtomicU64, Ordering};

/// No bound: the score is not known to be above (`lower`) or below (`upper`) anything.
pub(crate) const NO_LOWER: i32 = i16::MIN as i32;
/// See [`NO_LOWER`].
pub(crate) const NO_UPPER: i32 = i16::MAX as i32;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The depth the bounds were searched to (the empties, for exact entries).
    pub depth: u32,
    /// The best move found, as a cell index.
    pub best: Option<u32>,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The transposition table; its size is fixed at creation.
pub(crate) struct TranspositionTable {
    slots: Box<[Slot]>,
    bucket_mask: u64,
    /// The generation of this search's entries, 1 to [`GENERATIONS`]; an entry of another one
    /// is an empty slot.
    generation: u64,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
/// Set in every stored word, so that an all-zero slot is empty.
const OCCUPIED: u64 = 1 << 63;
/// Where a stored word keeps its generation (8 bits).
const GENERATION_SHIFT: u32 = 49;
/// Generations before the table is written over with zeros (generation 0 is that of zeros).
const GENERATIONS: u64 = 255;

fn pack(lower: i32, upper: i32, depth: u32, best: Option<u32>, generation: u64) -> u64 {
    let lower = u64::from(lower.clamp(NO_LOWER, NO_UPPER) as i16 as u16);
    let upper = u64::from(upper.clamp(NO_LOWER, NO_UPPER) as i16 as u16);
    let depth = u64::from(depth.min(255));
    let best = best.map_or(0, |index| u64::from(index) + 1);
    lower | upper << 16 | depth << 32 | best << 40 | generation << GENERATION_SHIFT | OCCUPIED
}

/// The generation of a stored word.
#[inline(always)]
fn generation_of(data: u64) -> u64 {
    (data >> GENERATION_SHIFT) & 0xff
}

fn unpack(data: u64) -> Hit {
    let best = (data >> 40) & 0x1ff;
    Hit {
        lower: i32::from(data as u16 as i16),
        upper: i32::from((data >> 16) as u16 as i16),
        depth: ((data >> 32) & 0xff) as u32,
        best: (best != 0).then(|| best as u32 - 1),
    }
}

/// Asks the system to back `bytes` of memory at `start`, not yet touched, with huge pages where
/// it can: the table is probed at random, and with ordinary 4 KiB pages most probes of a large
/// table also miss the processor's address translation cache. Only a hint; nothing changes
/// where the system does not take it.
fn ask_for_huge_pages(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let first = start.next_multiple_of(HUGE_PAGE);
        let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > first {
            // SAFETY: the range lies inside one allocation this process owns; `madvise` with
            // MADV_HUGEPAGE only changes how the kernel backs it, never its contents, and its
            // failure (an old kernel, huge pages turned off) is harmless and ignored.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket; the slot count is a power of two),
    /// or `None` if that much memory cannot be had.
    pub(crate) fn try_new(megabytes: usize) -> Option<TranspositionTable> {
        TranspositionTable::try_new_kib(megabytes.max(1).checked_mul(1 << 10)?)
    }

    /// A table of about `kib` KiB; see [`TranspositionTable::try_new`].
    pub(crate) fn try_new_kib(kib: usize) -> Option<TranspositionTable> {
        let wanted = kib.max(1).checked_mul(1 << 10)? / SLOT_BYTES;
        let slots = wanted.checked_next_power_of_two()?.max(2);
        let slots = if slots > wanted { slots / 2 } else { slots }.max(2);
        let layout = Layout::array::<Slot>(slots).ok()?;
        // SAFETY: the layout's size is not zero (two slots at least). Zeroed memory is `slots`
        // valid slots (a slot is two `AtomicU64`s, and zero is a valid one), allocated by the
        // global allocator with the layout of `[Slot; slots]`, so the box owns it and frees it
        // as it was allocated. Zeroed memory is asked of the system rather than written: its
        // pages are touched (and zeroed by the system) only where the search stores, so that a
        // short search does not pay for the whole table.
        let slots_memory = unsafe {
            #[expect(
                clippy::cast_ptr_alignment,
                reason = "the allocator aligns the memory as the layout of `[Slot; slots]` asks"
            )]
            let start = alloc_zeroed(layout).cast::<Slot>();
            if start.is_null() {
                return None;
            }
            ask_for_huge_pages(start as usize, layout.size());
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(start, slots))
        };
        Some(TranspositionTable {
            slots: slots_memory,
            bucket_mask: (slots as u64 / 2) - 1,
            generation: 1,
        })
    }

    /// A table of about `megabytes` MiB; see [`TranspositionTable::try_new`].
    ///
    /// # Panics
    /// If the memory cannot be had.
    #[cfg(test)]
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).expect("memory for the table")
    }

    /// Forgets every entry: a new generation, or zeros over the whole table once the
    /// generations run out.
    pub(crate) fn clear(&mut self) {
        if self.generation < GENERATIONS {
            self.generation += 1;
            return;
        }
        for slot in &mut self.slots {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.generation = 1;
    }

    /// The index of the first slot of `key`'s bucket.
    #[inline(always)]
    fn first_slot(&self, key: u64) -> usize {
        ((key & self.bucket_mask) * 2) as usize
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let first = self.first_slot(key);
        &self.slots[first..first + 2]
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after.
    #[inline(always)]
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(clippy::unused_self, reason = "only x86-64 has the prefetch hint")
    )]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let first = self.first_slot(key);
            // SAFETY: a prefetch is only a hint, never a load that can fault; the pointer is
            // inside the table anyway (the mask keeps the bucket in bounds).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(first).cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is stored for `key`, if anything.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key
                && generation_of(data) == self.generation
            {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores bounds for `key`.
    #[inline]
    pub(crate) fn store(&self, key: u64, lower: i32, upper: i32, depth: u32, best: Option<u32>) {
        let data = pack(lower, upper, depth, best, self.generation);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_depth = u64::MAX;
        for slot in bucket {
            let old = slot.data.load(Ordering::Relaxed);
            // An entry of an earlier generation is an empty slot: depth 0, no position.
            let current = generation_of(old) == self.generation;
            if current && slot.check.load(Ordering::Relaxed) ^ old == key {
                victim = slot;
                break;
            }
            let depth = if current { (old >> 32) & 0xff } else { 0 };
            if depth < victim_depth {
                victim_depth = depth;
                victim = slot;
            }
        }
        victim.check.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }
}

/// An engine's tables: the main one, shared by the search threads, and the solver's small one
/// of each thread.
pub(crate) struct Tables {
    /// The main table.
    pub main: TranspositionTable,
    /// One small table per thread: the calling thread's first, then each helper's.
    pub small: Vec<TranspositionTable>,
}

impl Tables {
    /// A main table of about `megabytes` MiB and `threads` small ones of `small_kib` KiB, or
    /// `None` if that much memory cannot be had.
    pub(crate) fn try_new(megabytes: usize, threads: usize, small_kib: usize) -> Option<Tables> {
        Some(Tables {
            main: TranspositionTable::try_new(megabytes)?,
            small: (0..threads)
                .map(|_| TranspositionTable::try_new_kib(small_kib))
                .collect::<Option<_>>()?,
        })
    }

    /// Forgets every entry of every table ([`TranspositionTable::clear`]).
    pub(crate) fn clear(&mut self) {
        self.main.clear();
        for table in &mut self.small {
            table.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_bounds() {
        let table = TranspositionTable::new(1);
        assert_eq!(table.probe(12345), None);
        table.store(12345, -6, 10, 7, Some(200));
        let hit = table.probe(12345).unwrap();
        assert_eq!(
            hit,
            Hit {
                lower: -6,
                upper: 10,
                depth: 7,
                best: Some(200)
            }
        );
        table.store(12345, NO_LOWER, NO_UPPER, 3, None);
        let hit = table.probe(12345).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.best), (NO_LOWER, NO_UPPER, None));
        assert_eq!(table.probe(54321), None);
    }

    #[test]
    fn clearing_forgets_every_entry_through_all_generations() {
        let mut table = TranspositionTable::new(1);
        // Past the last generation, where the table is written over, and on.
        for search in 0..2 * GENERATIONS + 3 {
            assert_eq!(table.probe(777), None, "search {search}");
            assert_eq!(table.probe(778), None, "search {search}");
            // Two positions of one bucket: a new search stores as into empty slots.
            table.store(777, 1, 1, 5, Some(3));
            table.store(777 + (table.bucket_mask + 1), 2, 2, 9, None);
            assert_eq!(table.probe(777).map(|hit| hit.depth), Some(5));
            table.clear();
        }
    }

    #[test]
    fn size_is_a_power_of_two_within_budget_and_every_slot_starts_empty() {
        let table = TranspositionTable::new(3);
        assert!(table.slots.len().is_power_of_two());
        assert!(table.slots.len() * SLOT_BYTES <= 3 << 20);
        assert!(table.slots.iter().all(|slot| {
            slot.check.load(Ordering::Relaxed) == 0 && slot.data.load(Ordering::Relaxed) == 0
        }));
    }
}
