//! Trace files: the JSON Lines of `playtest trace --json` written into a file (`trace --out
//! FILE`, `check --traces DIR`) and read back (`replay`).
//!
//! A trace repeats the whole table after every action, so the longest games make traces of
//! over 100 MB that gzip shrinks 20 to 50 times. A file whose name ends in `.gz` is written
//! gzip-compressed, any other plain; the lines are streamed through the compressor as the game
//! is played, so a long game's trace is never held in memory. The decompressed text is the
//! JSON Lines `trace --json` prints, byte for byte. Reading tells a compressed file by its
//! first two bytes (the gzip magic `1f 8b`), not by its name, so a renamed file reads too.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::engine::trace::Line;
use crate::error::Error;

/// The first two bytes of every gzip stream.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether a trace written to `path` is compressed: its name ends in `.gz`.
pub fn compressed_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// What [`TraceWriter::finish`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// Lines of JSON.
    pub lines: u64,
    /// Bytes of JSON Lines text (what `trace --json` prints).
    pub text_bytes: u64,
    /// Bytes of the file (the text, or the text gzip-compressed).
    pub file_bytes: u64,
    /// Whether the file is gzip-compressed.
    pub compressed: bool,
}

impl Written {
    /// "N lines, X MB" or "N lines, X MB gzip-compressed (Y MB of JSON Lines)" (kB under a
    /// megabyte).
    pub fn describe(&self) -> String {
        let mb = |b: u64| if b < 1_000_000 { format!("{:.1} kB", b as f64 / 1e3) } else { format!("{:.1} MB", b as f64 / 1e6) };
        if self.compressed {
            format!("{} lines, {} gzip-compressed ({} of JSON Lines)", self.lines, mb(self.file_bytes), mb(self.text_bytes))
        } else {
            format!("{} lines, {}", self.lines, mb(self.file_bytes))
        }
    }
}

/// The file under the writer, counting the bytes that reach it.
struct Counted {
    file: BufWriter<File>,
    bytes: u64,
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

enum Sink {
    Plain(Counted),
    Gzip(Box<GzEncoder<Counted>>),
}

/// A trace file being written, line by line (module doc). The first write error is kept and
/// returned by [`TraceWriter::finish`]; later lines are dropped.
pub struct TraceWriter {
    sink: Sink,
    /// The file (named in errors).
    path: PathBuf,
    lines: u64,
    text_bytes: u64,
    error: Option<std::io::Error>,
}

impl TraceWriter {
    /// Creates `path` (replacing any file there), gzip-compressed when `compressed`.
    pub fn create(path: &Path, compressed: bool) -> Result<TraceWriter, Error> {
        let file = File::create(path).map_err(|e| Error::output(path, e))?;
        let counted = Counted { file: BufWriter::with_capacity(1 << 16, file), bytes: 0 };
        // The best level: on these repetitive lines it takes hardly more time than the default
        // and makes the file a third smaller (Bluffing Joker's 158 MB capped game: 3.7 MB in
        // 3.0 s against 5.4 MB in 2.9 s).
        let sink = if compressed { Sink::Gzip(Box::new(GzEncoder::new(counted, Compression::best()))) } else { Sink::Plain(counted) };
        Ok(TraceWriter { sink, path: path.to_path_buf(), lines: 0, text_bytes: 0, error: None })
    }

    fn out(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w,
        }
    }

    /// Writes `line` as one line of JSON (the bytes `trace --json` prints for it).
    pub fn line(&mut self, line: &Line) {
        if self.error.is_some() {
            return;
        }
        let json = line.to_json();
        self.text(&json);
        self.text("\n");
    }

    /// Writes JSON Lines text as it is (a whole trace already in memory).
    pub fn text(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.out().write_all(text.as_bytes()) {
            self.error = Some(e);
            return;
        }
        self.text_bytes += text.len() as u64;
        self.lines += text.bytes().filter(|&b| b == b'\n').count() as u64;
    }

    /// Finishes the file (the gzip trailer, the buffer flushed): what was written, or the
    /// first error.
    pub fn finish(mut self) -> Result<Written, Error> {
        if let Some(e) = self.error.take() {
            return Err(Error::output(&self.path, e));
        }
        let compressed = matches!(self.sink, Sink::Gzip(_));
        let mut counted = match self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w.finish().map_err(|e| Error::output(&self.path, e))?,
        };
        counted.flush().map_err(|e| Error::output(&self.path, e))?;
        Ok(Written { lines: self.lines, text_bytes: self.text_bytes, file_bytes: counted.bytes, compressed })
    }
}

/// The JSON Lines text of the trace file `path`, decompressed when it starts with the gzip
/// magic bytes. A file that cannot be read, a corrupt or cut gzip stream and text that is not
/// UTF-8 are usage errors (exit code 2) naming the file.
pub fn read(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::Usage(format!("{}: cannot read the trace: {e}", path.display())))?;
    decode(path, bytes)
}

/// The JSON Lines text of a trace file's bytes (see [`read`]; `path` is named in errors).
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, Error> {
    if !bytes.starts_with(&GZIP_MAGIC) {
        return String::from_utf8(bytes).map_err(|e| {
            Error::Usage(format!(
                "{}: not a trace: byte {} is not UTF-8 text (a trace is JSON Lines, or JSON Lines gzip-compressed)",
                path.display(),
                e.utf8_error().valid_up_to() + 1
            ))
        });
    }
    let mut text = Vec::with_capacity(bytes.len().saturating_mul(20));
    if let Err(e) = MultiGzDecoder::new(bytes.as_slice()).read_to_end(&mut text) {
        let what =
            if e.kind() == std::io::ErrorKind::UnexpectedEof { "the gzip stream is cut short".to_string() } else { format!("the gzip stream is corrupt: {e}") };
        return Err(Error::Usage(format!(
            "{}: cannot decompress the trace: {what} (after {} bytes of text); the file was cut or damaged: write it again",
            path.display(),
            text.len()
        )));
    }
    String::from_utf8(text)
        .map_err(|e| Error::Usage(format!("{}: not a trace: byte {} of the decompressed text is not UTF-8", path.display(), e.utf8_error().valid_up_to() + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gz(text: &str) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_and_compressed_read_the_same_and_a_cut_stream_is_refused() {
        let text = "{\"type\":\"end\"}\n".repeat(2000);
        let p = Path::new("t.jsonl.gz");
        assert_eq!(decode(p, text.clone().into_bytes()).unwrap(), text);
        let bytes = gz(&text);
        assert_eq!(decode(p, bytes.clone()).unwrap(), text);
        for cut in [bytes.len() - 4, bytes.len() / 2, 12] {
            let e = decode(p, bytes[..cut].to_vec()).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().starts_with("t.jsonl.gz: cannot decompress the trace: the gzip stream"), "{e}");
        }
        let mut bad = bytes.clone();
        bad[20] ^= 0xff;
        assert_eq!(decode(p, bad).unwrap_err().exit_code(), 2);
        assert_eq!(decode(p, vec![b'{', 0xff]).unwrap_err().exit_code(), 2);
    }

    #[test]
    fn a_written_file_reads_back_and_counts_its_lines_and_bytes() {
        let dir = std::env::temp_dir().join(format!("playtest-trace-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "{\"type\":\"state\",\"step\":1}\n".repeat(500);
        for name in ["t.jsonl.gz", "t.jsonl"] {
            let path = dir.join(name);
            let mut w = TraceWriter::create(&path, compressed_name(&path)).unwrap();
            w.text(&text[..100]);
            w.text(&text[100..]);
            let written = w.finish().unwrap();
            assert_eq!((written.lines, written.text_bytes, written.compressed), (500, text.len() as u64, name.ends_with(".gz")));
            assert_eq!(written.file_bytes, std::fs::metadata(&path).unwrap().len());
            assert_eq!(read(&path).unwrap(), text);
        }
        assert!(std::fs::metadata(dir.join("t.jsonl.gz")).unwrap().len() * 20 < text.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_name_ending_in_gz_is_compressed() {
        assert!(compressed_name(Path::new("a/t.jsonl.gz")));
        assert!(compressed_name(Path::new("T.GZ")));
        assert!(!compressed_name(Path::new("t.jsonl")));
        assert!(!compressed_name(Path::new("gz")));
    }
}
