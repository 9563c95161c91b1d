//! `agon-ugi`: the bots of agon-bots as a UGI engine over standard input and output (see
//! `docs/UGI.md`). End of input is `quit`.

use std::io::{BufRead, Write};
use std::sync::mpsc;

fn main() {
    let (tx, rx) = mpsc::channel::<agon_ugi::Output>();
    // One writer: lines of the reading thread and of the search thread never interleave,
    // and each is flushed at once (a harness waits for it).
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for line in rx {
            if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                break;
            }
        }
    });
    let mut session = agon_ugi::Session::new(tx);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Bytes that are not UTF-8 become U+FFFD: an unknown word, not an end.
        let line = String::from_utf8_lossy(&buffer);
        if !session.handle_line(&line) {
            break;
        }
    }
    drop(session);
    let _ = writer.join();
}
