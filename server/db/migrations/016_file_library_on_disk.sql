-- File-library uploads are streamed to disk (DATA_DIR/file-library/<sha256>) instead of held in the
-- database: content_file names the stored bytes; content stays for entries stored before (demo files).
alter table file_library add column if not exists content_file text;
