//! Reading self-play data files from arbitrary bytes: never panics; what it reads is whole
//! games of valid samples, within the file, and written back it reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello_engine::train::data::{data_bytes, read_data};

fuzz_target!(|data: &[u8]| {
    let Ok(read) = read_data(data) else {
        return;
    };
    assert!(read.whole_bytes <= data.len() as u64);
    assert!(read.samples.iter().all(|sample| sample.check().is_ok()));
    assert!(read.samples.last().is_none_or(|sample| sample.last));
    let again = read_data(data_bytes(&read.samples).as_slice()).expect("written data reads");
    assert_eq!(again.samples, read.samples);
});
