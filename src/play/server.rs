//! The table's HTTP server: loopback only, one game, one token.
//!
//! It listens on 127.0.0.1 (a free port unless one is given) and answers only requests that
//! come from the loopback address, name this machine in their `Host` header (so a page of
//! another site cannot reach it through a renamed host) and carry the random token of the
//! printed address (`?token=...`, or the `X-Playtest-Token` header the page sends). A refused
//! request gets a 4xx answer whose JSON `error` names the rule broken, and changes nothing.
//!
//! The JSON API (every path takes `?token=...`):
//! - `GET /`: the page;
//! - `GET /api/state`: the game, the seats, whose turn, the seat's view of the table, its
//!   legal actions (when it must decide) and the end;
//! - `GET /api/legal`: the seat's legal actions, each with its place, the action in the
//!   game's trace notation and its words;
//! - `POST /api/action` with `{"action": ACTION, "step": N}`: the seat's action (`step`,
//!   optional, refuses an action chosen for an earlier table);
//! - `POST /api/advance`: the next bot decision (the page sets the pace);
//! - `GET /api/events?since=N`: what the seat saw happen from narration entry N on;
//! - `POST /api/hints?iterations=N`: the search bot's advice ([`super::hints`]).
//!
//! The save file is written when the server starts and the lines of every action are
//! appended to it as they happen, so whatever stops the server, the trace of what was played
//! is kept.

use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use super::{DEFAULT_HINT_ITERATIONS, MAX_HINT_ITERATIONS, PlayTable, Refusal};
use crate::error::Error;

/// Largest request body read (an action is a few hundred bytes).
const MAX_BODY: u64 = 64 * 1024;

/// How the server runs.
#[derive(Clone, Debug, Default)]
pub struct ServerOptions {
    /// Port on 127.0.0.1 (0: a free one).
    pub port: u16,
    /// Where the game is saved after every action (`None`: not saved).
    pub save: Option<PathBuf>,
    /// Whether the page shows the advice at every decision without being asked.
    pub hints: bool,
    /// HTML added at the end of the page's body: for tests that drive the page in a browser.
    pub page_extra: String,
}

/// What a finished server reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// Decisions recorded.
    pub decisions: u64,
    /// Whether the game reached its end.
    pub over: bool,
}

/// A server running on its own thread.
pub struct Running {
    addr: SocketAddr,
    token: String,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Result<Finished, Error>>,
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The address to open, with the token.
    pub fn url(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.token)
    }

    /// Whether the server has stopped (an error, or [`Running::stop`]).
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Stops the server (within a tenth of a second) and returns what it played.
    pub fn stop(self) -> Result<Finished, Error> {
        self.stop.store(true, Ordering::SeqCst);
        self.wait()
    }

    /// Waits until the server stops (a Ctrl-C, see [`crate::interrupt`]).
    pub fn wait(self) -> Result<Finished, Error> {
        self.thread.join().unwrap_or_else(|_| Err(Error::Invariant("the play server's thread panicked".into())))
    }
}

/// A random token of 128 bits from the operating system's generator, in hex.
pub fn new_token() -> String {
    use rand::RngExt;
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// Starts serving `table` on 127.0.0.1 (see the module doc); stops when [`Running::stop`] is
/// called or a Ctrl-C is asked for ([`crate::interrupt::requested`]).
pub fn start(table: Box<dyn PlayTable>, options: ServerOptions) -> Result<Running, Error> {
    let server = Server::http(("127.0.0.1", options.port))
        .map_err(|e| Error::Usage(format!("--port {}: cannot listen on 127.0.0.1:{}: {e}", options.port, options.port)))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| Error::Usage("the server has no IP address".into()))?;
    let token = new_token();
    let stop = Arc::new(AtomicBool::new(false));
    let mut state = Serving { table, token: token.clone(), port: addr.port(), options, written: 0 };
    state.save()?;
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name("playtest-play".into())
        .spawn(move || {
            while !flag.load(Ordering::SeqCst) && !crate::interrupt::requested() {
                match server.recv_timeout(Duration::from_millis(100)) {
                    Ok(Some(request)) => state.answer(request)?,
                    Ok(None) => {}
                    Err(e) => return Err(Error::Usage(format!("the play server stopped: {e}"))),
                }
            }
            state.save()?;
            Ok(Finished { decisions: state.table.decisions(), over: state.table.over() })
        })
        .map_err(|e| Error::Invariant(format!("cannot start the play server's thread: {e}")))?;
    Ok(Running { addr, token, stop, thread })
}

struct Serving {
    table: Box<dyn PlayTable>,
    token: String,
    port: u16,
    options: ServerOptions,
    /// Trace lines already in the save file.
    written: usize,
}

/// The parts of a request the admission looks at.
#[derive(Clone, Copy, Debug)]
pub struct Caller<'a> {
    /// The peer's address.
    pub remote: Option<SocketAddr>,
    /// The `Host` header.
    pub host: Option<&'a str>,
    /// The token of the query or the `X-Playtest-Token` header.
    pub token: Option<&'a str>,
}

/// Admits a request to the table on port `port` with token `token`, or says which rule it
/// breaks: it must come from the loopback address, name this machine and carry the token.
pub fn admit(caller: Caller<'_>, token: &str, port: u16) -> Result<(), Refusal> {
    match caller.remote {
        Some(addr) if addr.ip().is_loopback() => {}
        Some(addr) => {
            return Err(Refusal {
                status: 403,
                message: format!("requests from {} are refused: only this computer (the loopback address) may use the table", addr.ip()),
            });
        }
        None => return Err(Refusal { status: 403, message: "a request with no peer address is refused: only the loopback address may use the table".into() }),
    }
    let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")];
    match caller.host {
        Some(host) if allowed.iter().any(|a| a.eq_ignore_ascii_case(host)) => {}
        Some(host) => {
            return Err(Refusal {
                status: 403,
                message: format!("the Host header `{host}` is refused: the table answers only requests to 127.0.0.1:{port} or localhost:{port}"),
            });
        }
        None => return Err(Refusal { status: 400, message: "a request with no Host header is refused".into() }),
    }
    match caller.token {
        None => Err(Refusal { status: 401, message: "no token: open the address `playtest play` printed (it ends in ?token=...)".into() }),
        Some(t) if !same(t.as_bytes(), token.as_bytes()) => {
            Err(Refusal { status: 403, message: "wrong token: open the address `playtest play` printed for this game (each run has its own token)".into() })
        }
        Some(_) => Ok(()),
    }
}

/// Compares two byte strings in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The value of `key` in a query string (`a=1&b=2`).
fn query<'a>(q: &'a str, key: &str) -> Option<&'a str> {
    q.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == key).map(|(_, v)| v)
}

impl Serving {
    fn answer(&mut self, mut request: Request) -> Result<(), Error> {
        let url = request.url().to_string();
        let (path, q) = url.split_once('?').unwrap_or((url.as_str(), ""));
        let header = |name: &'static str| request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_string());
        let host = header("Host");
        let token_header = header("X-Playtest-Token");
        let caller = Caller { remote: request.remote_addr().copied(), host: host.as_deref(), token: query(q, "token").or(token_header.as_deref()) };
        let reply = match admit(caller, &self.token, self.port) {
            Err(refusal) => Reply::refused(refusal),
            Ok(()) => self.route(request.method().clone(), path, q, &mut request),
        };
        let changed = reply.changed;
        let _ = request.respond(reply.into_response());
        if changed {
            self.save()?;
        }
        Ok(())
    }

    fn route(&mut self, method: Method, path: &str, q: &str, request: &mut Request) -> Reply {
        match (method, path) {
            (Method::Get, "/") => Reply::html(super::page::page(&self.table.title(), &self.token, self.options.hints, &self.options.page_extra)),
            (Method::Get, "/api/state") => Reply::json(self.table.status()),
            (Method::Get, "/api/legal") => {
                let status = self.table.status();
                Reply::json(json!({ "step": status["step"], "your_turn": status["your_turn"], "legal": status["legal"] }))
            }
            (Method::Get, "/api/events") => match query(q, "since").map(str::parse::<usize>) {
                None => Reply::json(self.table.events_since(0)),
                Some(Ok(n)) => Reply::json(self.table.events_since(n)),
                Some(Err(_)) => Reply::refused(Refusal { status: 400, message: "`since` must be a whole number (an entry of the narration)".into() }),
            },
            (Method::Post, "/api/action") => {
                let body = match read_json(request) {
                    Ok(b) => b,
                    Err(r) => return Reply::refused(r),
                };
                let Some(action) = body.get("action") else {
                    return Reply::refused(Refusal {
                        status: 400,
                        message: "the body must be a JSON object with the `action` to play (and optionally its `step`)".into(),
                    });
                };
                let step = match body.get("step") {
                    None | Some(Value::Null) => None,
                    Some(v) => match v.as_u64() {
                        Some(s) => Some(s),
                        None => return Reply::refused(Refusal { status: 400, message: format!("`step` must be a whole number, not {v}") }),
                    },
                };
                match self.table.act(action, step) {
                    Ok(entry) => Reply::changed(entry),
                    Err(r) => Reply::refused(r),
                }
            }
            (Method::Post, "/api/advance") => match self.table.advance() {
                Ok(entry) => Reply::changed(entry),
                Err(r) => Reply::refused(r),
            },
            (Method::Post, "/api/hints") => {
                let iterations = match query(q, "iterations").map(str::parse::<u32>) {
                    None => DEFAULT_HINT_ITERATIONS,
                    Some(Ok(n)) if (1..=MAX_HINT_ITERATIONS).contains(&n) => n,
                    _ => {
                        return Reply::refused(Refusal {
                            status: 400,
                            message: format!("`iterations` must be a whole number from 1 to {MAX_HINT_ITERATIONS}"),
                        });
                    }
                };
                match self.table.hints(iterations) {
                    Ok((v, _)) => Reply::json(v),
                    Err(r) => Reply::refused(r),
                }
            }
            (_, "/" | "/api/state" | "/api/legal" | "/api/events" | "/api/action" | "/api/advance" | "/api/hints") => {
                Reply::refused(Refusal { status: 405, message: format!("{path} does not take this method (GET reads, POST acts)") })
            }
            _ => Reply::refused(Refusal { status: 404, message: format!("no such page: {path}") }),
        }
    }

    /// Brings the save file up to date: written whole the first time, then the new lines
    /// appended (a long game's trace is never rewritten).
    fn save(&mut self) -> Result<(), Error> {
        let Some(file) = &self.options.save else { return Ok(()) };
        let (text, lines) = self.table.trace_from(self.written);
        if self.written == 0 {
            save_trace(file, &text)?;
        } else if !text.is_empty() {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().append(true).open(file).map_err(|e| Error::output(file, e))?;
            f.write_all(text.as_bytes()).map_err(|e| Error::output(file, e))?;
        }
        self.written = lines;
        Ok(())
    }
}

/// Writes `text` into `file` whole: a temporary file beside it, renamed over it.
pub fn save_trace(file: &Path, text: &str) -> Result<(), Error> {
    let name = file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "trace".into());
    let tmp = file.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).map_err(|e| Error::output(file, e))?;
    std::fs::rename(&tmp, file).map_err(|e| Error::output(file, e))
}

fn read_json(request: &mut Request) -> Result<Value, Refusal> {
    let mut body = String::new();
    let mut reader = request.as_reader().take(MAX_BODY + 1);
    reader.read_to_string(&mut body).map_err(|e| Refusal { status: 400, message: format!("the body is not UTF-8 text: {e}") })?;
    if body.len() as u64 > MAX_BODY {
        return Err(Refusal { status: 413, message: format!("the body is over {MAX_BODY} bytes") });
    }
    serde_json::from_str(&body).map_err(|e| Refusal { status: 400, message: format!("the body is not JSON: {e}") })
}

struct Reply {
    status: u16,
    body: String,
    content_type: &'static str,
    changed: bool,
}

impl Reply {
    fn json(v: Value) -> Self {
        Reply { status: 200, body: v.to_string(), content_type: "application/json; charset=utf-8", changed: false }
    }
    fn changed(v: Value) -> Self {
        Reply { changed: true, ..Reply::json(v) }
    }
    fn html(text: String) -> Self {
        Reply { status: 200, body: text, content_type: "text/html; charset=utf-8", changed: false }
    }
    fn refused(r: Refusal) -> Self {
        Reply {
            status: r.status,
            body: json!({ "error": r.message, "status": r.status }).to_string(),
            content_type: "application/json; charset=utf-8",
            changed: false,
        }
    }
    fn into_response(self) -> Response<std::io::Cursor<Vec<u8>>> {
        let header = |k: &str, v: &str| Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("a valid header");
        Response::from_data(self.body.into_bytes())
            .with_status_code(self.status)
            // One body with its length, never chunked: simple clients (tests, scripts) read it whole.
            .with_chunked_threshold(usize::MAX)
            .with_header(header("Content-Type", self.content_type))
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"))
            .with_header(header("Referrer-Policy", "no-referrer"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller<'a>(remote: &str, host: Option<&'a str>, token: Option<&'a str>) -> Caller<'a> {
        Caller { remote: Some(remote.parse().unwrap()), host, token }
    }

    #[test]
    fn only_loopback_callers_with_the_host_and_token_are_admitted() {
        let ok = admit(caller("127.0.0.1:5000", Some("127.0.0.1:8000"), Some("abc")), "abc", 8000);
        assert_eq!(ok, Ok(()));
        assert!(admit(caller("[::1]:5000", Some("localhost:8000"), Some("abc")), "abc", 8000).is_ok());
        let other = admit(caller("192.168.1.7:5000", Some("127.0.0.1:8000"), Some("abc")), "abc", 8000).unwrap_err();
        assert_eq!(other.status, 403);
        assert!(other.message.contains("192.168.1.7") && other.message.contains("loopback"), "{other:?}");
        let host = admit(caller("127.0.0.1:5000", Some("evil.example:8000"), Some("abc")), "abc", 8000).unwrap_err();
        assert!(host.status == 403 && host.message.contains("evil.example"), "{host:?}");
        let missing = admit(caller("127.0.0.1:5000", Some("127.0.0.1:8000"), None), "abc", 8000).unwrap_err();
        assert_eq!(missing.status, 401);
        let wrong = admit(caller("127.0.0.1:5000", Some("127.0.0.1:8000"), Some("abd")), "abc", 8000).unwrap_err();
        assert!(wrong.status == 403 && wrong.message.contains("wrong token"), "{wrong:?}");
        assert!(admit(caller("127.0.0.1:5000", Some("127.0.0.1:8000"), Some("ab")), "abc", 8000).is_err());
    }

    #[test]
    fn tokens_are_long_and_fresh() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
