//! Game records in every format, from arbitrary bytes: reading never panics, and every record
//! read is written back in each format that can hold it and reads again as the same games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::RuleSet;
use othello_records::{self as record, Format, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let rules = if selector & 1 == 0 {
        RuleSet::Full
    } else {
        RuleSet::Simple
    };
    let options = ReadOptions { rules };
    // A WTHOR file may hold no game; the text formats call that an error.
    let Ok(records) = record::read(input, &options) else {
        return;
    };
    if records.is_empty() {
        return;
    }
    // Formats that do not name the rule set leave it to the reader: FULL unless every game is
    // SIMPLE (move lists and GGF mark SIMPLE games; a protocol input holds one game).
    let all_simple = records
        .iter()
        .all(|record| record.rules() == RuleSet::Simple);
    let back = ReadOptions {
        rules: if all_simple {
            RuleSet::Simple
        } else {
            RuleSet::Full
        },
    };
    for format in Format::ALL {
        let Ok(written) = record::write(&records, format) else {
            continue;
        };
        let again = record::read_as(format, &written, &back)
            .unwrap_or_else(|error| panic!("{format:?} written and not read back: {error}"));
        assert_eq!(again.len(), records.len(), "{format:?}");
        for (before, after) in records.iter().zip(&again) {
            assert_eq!(
                before.final_game().board(),
                after.final_game().board(),
                "{format:?}"
            );
        }
    }
});
