-- Uploaded files shared by every director of one database (server/storage/shared-files.ts): the bytes
-- of PCAP captures and file-library contents in 1 MiB chunks, named by their path under DATA_DIR
-- ('pcap/uploads/12.cap', 'file-library/<sha256>'). A director reads its local copy under DATA_DIR and,
-- when it has none, the database's (copied to DATA_DIR for captures). A stored_files row is written
-- once all its chunks are in: a name without one is not (yet) there.
create table if not exists stored_file_chunks (
  name text not null,
  n int not null,
  bytes bytea not null,
  primary key (name, n)
);
create table if not exists stored_files (
  name text primary key,
  size bigint not null,
  chunks int not null,
  stored_at timestamptz not null default now()
);
