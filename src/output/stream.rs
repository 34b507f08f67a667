//! Per-game rows written as the run goes: Parquet row groups and appended CSV chunks, a
//! bounded buffer at a time, so writing `--out` never holds every row of a long run.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use polars_io::csv::write::BatchedWriter as CsvBatched;
use polars_io::parquet::write::BatchedWriter as ParquetBatched;
use polars_io::prelude::{CsvWriter, ParquetWriter, SerWriter};

use super::{RowContext, rows_frame};
use crate::error::Error;
use crate::sim::GameRow;

/// Rows buffered before a Parquet row group (and a CSV chunk) is written: about 8 MB.
pub const ROW_GROUP: usize = 65_536;

/// A buffered file shared with the polars writer, so it can be flushed (and its errors seen)
/// after the writer is done with it.
#[derive(Clone)]
struct Shared(Rc<RefCell<BufWriter<File>>>);

impl Shared {
    fn create(path: &Path) -> Result<Shared, Error> {
        let f = File::create(path).map_err(|e| Error::output(path, e))?;
        Ok(Shared(Rc::new(RefCell::new(BufWriter::with_capacity(1 << 20, f)))))
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Writes `<stem>.parquet` and `<stem>.csv` a row group at a time.
pub struct RowWriter<'a> {
    ctx: RowContext<'a>,
    parquet: ParquetBatched<Shared>,
    csv: CsvBatched<Shared>,
    files: [Shared; 2],
    parquet_path: PathBuf,
    csv_path: PathBuf,
    buffer: Vec<GameRow>,
    group: usize,
    written: u64,
}

impl<'a> RowWriter<'a> {
    /// Creates both files in `dir` (before the run, so a bad path fails fast).
    pub fn create(dir: &Path, stem: &str, ctx: RowContext<'a>) -> Result<RowWriter<'a>, Error> {
        let parquet_path = dir.join(format!("{stem}.parquet"));
        let csv_path = dir.join(format!("{stem}.csv"));
        let schema = rows_frame(&[], &ctx).map_err(|e| Error::output(dir, e))?.schema().as_ref().clone();
        let files = [Shared::create(&parquet_path)?, Shared::create(&csv_path)?];
        let parquet = ParquetWriter::new(files[0].clone()).batched(&schema).map_err(|e| Error::output(&parquet_path, e))?;
        let csv = CsvWriter::new(files[1].clone()).batched(&schema).map_err(|e| Error::output(&csv_path, e))?;
        Ok(RowWriter { ctx, parquet, csv, files, parquet_path, csv_path, buffer: Vec::new(), group: ROW_GROUP, written: 0 })
    }

    /// Sets the rows per row group (default [`ROW_GROUP`], at least 1).
    pub fn with_row_group(mut self, rows: usize) -> Self {
        self.group = rows.max(1);
        self
    }

    /// Adds rows (in game order); writes a row group whenever a group's rows are buffered.
    pub fn write(&mut self, rows: &[GameRow]) -> Result<(), Error> {
        let mut rest = rows;
        while !rest.is_empty() {
            let take = (self.group - self.buffer.len()).min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() == self.group {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Error> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let df = rows_frame(&self.buffer, &self.ctx).map_err(|e| Error::output(&self.parquet_path, e))?;
        self.parquet.write_batch(&df).map_err(|e| Error::output(&self.parquet_path, e))?;
        self.csv.write_batch(&df).map_err(|e| Error::output(&self.csv_path, e))?;
        self.written += self.buffer.len() as u64;
        self.buffer.clear();
        Ok(())
    }

    /// Writes the last rows and closes both files; returns the number of rows written.
    pub fn finish(mut self) -> Result<u64, Error> {
        self.flush()?;
        self.parquet.finish().map_err(|e| Error::output(&self.parquet_path, e))?;
        self.csv.finish().map_err(|e| Error::output(&self.csv_path, e))?;
        let [mut parquet, mut csv] = self.files;
        parquet.flush().map_err(|e| Error::output(&self.parquet_path, e))?;
        csv.flush().map_err(|e| Error::output(&self.csv_path, e))?;
        Ok(self.written)
    }
}

#[cfg(test)]
mod tests {
    use polars_io::prelude::{ParquetReader, SerReader};

    use super::*;
    use crate::engine::Outcome;

    fn row(index: u64) -> GameRow {
        let mut outcome = Outcome::new();
        outcome.length = (index % 17) as u32 + 1;
        outcome.winners = 1 << (index % 2);
        outcome.scores[0] = index as i64;
        outcome.eliminated_at[1] = (index % 3) as u32;
        GameRow { index, seed: index * 7, outcome }
    }

    #[test]
    fn rows_written_in_uneven_chunks_come_back_whole_and_in_order() {
        let dir = std::env::temp_dir().join(format!("playtest-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bots = vec!["a".to_string(), "b".to_string()];
        let ctx = RowContext { seats: 2, seat_bots: &bots, end_reasons: &["done"] };
        let mut w = RowWriter::create(&dir, "t", ctx).unwrap().with_row_group(100);
        let rows: Vec<GameRow> = (0..1037).map(row).collect();
        for chunk in rows.chunks(37) {
            w.write(chunk).unwrap();
        }
        assert_eq!(w.finish().unwrap(), 1037);
        let ctx = RowContext { seats: 2, seat_bots: &bots, end_reasons: &["done"] };
        let expected = rows_frame(&rows, &ctx).unwrap();
        let f = File::open(dir.join("t.parquet")).unwrap();
        let mut reader = ParquetReader::new(f);
        let groups = reader.num_rows().unwrap();
        assert_eq!(groups, 1037);
        let back = reader.finish().unwrap();
        assert!(back.equals_missing(&expected), "{back}");
        let csv = std::fs::read_to_string(dir.join("t.csv")).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 1038, "header + one line per row");
        assert!(lines[0].starts_with("game,seed,length"));
        for (i, line) in lines[1..].iter().enumerate() {
            assert!(line.starts_with(&format!("{i},{},", i * 7)), "{line}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
