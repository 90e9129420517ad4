//! The protocol's header and grid reader on arbitrary bytes: never panics, agrees with a
//! line-by-line drive of the same parser, and a setup it reads is written back to text that reads
//! as the same setup.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{Setup, SetupParser};

fuzz_target!(|data: &[u8]| {
    let whole = Setup::from_protocol_bytes(data);
    let mut parser = SetupParser::new();
    let mut by_lines = None;
    for line in othello::protocol::lines(data) {
        match parser.push_line(line) {
            Ok(Some(setup)) => {
                by_lines = Some(Ok(setup));
                break;
            }
            Ok(None) => {}
            Err(error) => {
                by_lines = Some(Err(error));
                break;
            }
        }
    }
    let by_lines = by_lines.unwrap_or_else(|| Err(parser.end_of_input()));
    assert_eq!(whole, by_lines);
    if let Ok(setup) = whole {
        let text = setup.to_protocol();
        let again = Setup::from_protocol(&text).expect("a written setup reads back");
        assert_eq!(again, setup);
        assert_eq!(again.to_protocol(), text);
    }
});
