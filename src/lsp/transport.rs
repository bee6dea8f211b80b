//! JSON-RPC over standard input and output with `Content-Length` framing.
//!
//! `lsp-server` gives the message types; its own stdio reader ends the connection on the
//! first malformed message, so the reading is done here: a body that is not JSON gets a
//! `ParseError` response, JSON that is no message an `InvalidRequest`, an oversized body is
//! skipped with an error, and the server keeps reading. Bodies are written by one thread, so
//! that the main loop and the evaluation worker never interleave two messages.

use std::io::{self, BufRead, Read, Write};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{ErrorCode, Message};
use serde_json::{json, Value};

/// The largest message body read (a 10 MB document in `didOpen` fits many times over); a
/// larger one is skipped unread.
pub const MAX_BODY: usize = 256 << 20;

/// The largest header line: longer is no LSP header.
const MAX_HEADER: u64 = 8 << 10;

/// A message's JSON text with the `jsonrpc` member every message carries.
pub fn body(message: &Message) -> String {
    let mut value = serde_json::to_value(message).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("jsonrpc".into(), json!("2.0"));
    }
    value.to_string()
}

/// An error response to a message whose id could not be read (JSON-RPC's `id: null`).
fn error_without_id(code: ErrorCode, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code as i32, "message": message}})
        .to_string()
}

/// Sent to the writer to make it stop once everything before it is written: the reader
/// thread, blocked on the input, still holds a sender, so the channel does not close.
pub const STOP: &str = "";

/// Writes each body sent on the channel, framed, until [`STOP`] or until the channel or the
/// output closes.
pub fn writer(out: Receiver<String>) -> io::Result<()> {
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    for text in out {
        if text == STOP {
            break;
        }
        write!(stdout, "Content-Length: {}\r\n\r\n{text}", text.len())?;
        stdout.flush()?;
    }
    Ok(())
}

/// Reads messages from `input` and sends each to `messages`; malformed ones are answered on
/// `out` directly. Returns at the end of the input or when the main loop has gone.
pub fn reader(input: impl BufRead, messages: Sender<Message>, out: Sender<String>) {
    let mut input = input;
    loop {
        let length = match headers(&mut input) {
            Ok(Some(Ok(n))) => n,
            Ok(Some(Err(why))) => {
                let _ = out.send(error_without_id(ErrorCode::ParseError, &why));
                continue;
            }
            Ok(None) | Err(_) => return,
        };
        if length > MAX_BODY {
            let skipped = io::copy(&mut (&mut input).take(length as u64), &mut io::sink());
            let _ = out.send(error_without_id(
                ErrorCode::InvalidRequest,
                &format!("a message of {length} bytes is more than the {MAX_BODY} read"),
            ));
            if skipped.map_or(true, |n| n < length as u64) {
                return;
            }
            continue;
        }
        let mut bytes = vec![0; length];
        if input.read_exact(&mut bytes).is_err() {
            return;
        }
        let value: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => {
                let _ = out.send(error_without_id(
                    ErrorCode::ParseError,
                    &format!("the message is not JSON: {e}"),
                ));
                continue;
            }
        };
        let id = value.get("id").cloned();
        match serde_json::from_value::<Message>(value) {
            Ok(message) => {
                if messages.send(message).is_err() {
                    return;
                }
            }
            Err(e) => {
                let why = format!("not a JSON-RPC request, response or notification: {e}");
                let _ = out.send(
                    match id.filter(|id| id.is_i64() || id.is_string()) {
                        Some(id) => json!({"jsonrpc": "2.0", "id": id, "error": {
                            "code": ErrorCode::InvalidRequest as i32, "message": why}}),
                        None => json!({"jsonrpc": "2.0", "id": null, "error": {
                            "code": ErrorCode::InvalidRequest as i32, "message": why}}),
                    }
                    .to_string(),
                );
            }
        }
    }
}

/// The headers of the next message: `Some(Ok(length))`, `Some(Err(why))` for headers without
/// a usable `Content-Length` (the next message is looked for after them), `None` at the end of
/// the input.
fn headers(input: &mut impl BufRead) -> io::Result<Option<Result<usize, String>>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut any = false;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !any {
                // Blank lines between messages are tolerated.
                continue;
            }
            return Ok(Some(length.unwrap_or_else(|| {
                Err("a message without a Content-Length header".into())
            })));
        }
        any = true;
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = Some(value.trim().parse().map_err(|_| {
                    format!(
                        "Content-Length `{}` is not a number",
                        crate::text::escape(value.trim())
                    )
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &str) -> (Vec<Message>, Vec<String>) {
        let (msg_tx, msg_rx) = crossbeam_channel::unbounded();
        let (out_tx, out_rx) = crossbeam_channel::unbounded();
        reader(input.as_bytes(), msg_tx, out_tx);
        (msg_rx.try_iter().collect(), out_rx.try_iter().collect())
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn bad_messages_are_answered_and_reading_goes_on() {
        let input = [
            frame("{not json"),
            frame(r#"{"id": 7, "params": 3}"#),
            "X-Other: 1\r\n\r\n".to_string(),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
        ]
        .concat();
        let (messages, answers) = read_all(&input);
        assert_eq!(messages.len(), 1);
        assert!(matches!(&messages[0], Message::Request(r) if r.method == "shutdown"));
        assert_eq!(answers.len(), 3);
        assert!(answers[0].contains("-32700") && answers[0].contains(r#""id":null"#));
        assert!(answers[1].contains("-32600") && answers[1].contains(r#""id":7"#));
        assert!(answers[2].contains("Content-Length"));
    }

    #[test]
    fn a_truncated_message_ends_the_input() {
        let (messages, answers) = read_all("Content-Length: 100\r\n\r\n{}");
        assert!(messages.is_empty() && answers.is_empty());
    }
}
