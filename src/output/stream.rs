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
        Ok(RowWriter { ctx, parquet, csv, files, parquet_path, csv_path, buffer: Vec::with_capacity(ROW_GROUP), written: 0 })
    }

    /// Adds rows (in game order); writes a row group whenever [`ROW_GROUP`] rows are buffered.
    pub fn write(&mut self, rows: &[GameRow]) -> Result<(), Error> {
        let mut rest = rows;
        while !rest.is_empty() {
            let take = (ROW_GROUP - self.buffer.len()).min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() == ROW_GROUP {
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
