//! Placeholder (not committed): the base commit declares this module without the file.
