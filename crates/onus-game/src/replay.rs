//! Games as data (placeholder, completed in step 6).
