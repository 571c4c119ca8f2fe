-- Action authoring (actions.md sections 2-8): DNS servers for dns Actions, a snapshot per saved
-- version of an Action, the VID sequence of Actions created in the form, and the entries of zip files
-- checked at upload. Plain PostgreSQL 15 SQL that PGlite 0.5 also runs.

-- DNS servers a dns Action may query (dns_server_id); null on the Action means 'Default', the Actor's
-- local DNS server.
create table dns_servers (
  id serial primary key,
  name text not null,
  address text not null,
  unique (address)
);
insert into dns_servers (id, name, address) values
  (1, 'Corporate DNS (dc01)', '10.10.0.10'),
  (2, 'Google Public DNS', '8.8.8.8'),
  (3, 'Cloudflare', '1.1.1.1'),
  (4, 'Quad9', '9.9.9.9');
select setval(pg_get_serial_sequence('dns_servers', 'id'), 5, false);

-- Every saved version of an Action, as the form submitted it (values in the payload shape of
-- src/api/contracts/action-form.ts), so earlier versions can be shown or restored.
create table action_versions (
  action_id integer not null references actions(id) on delete cascade,
  version integer not null,
  snapshot jsonb not null,
  saved_by integer references users(id) on delete set null,
  saved_at timestamptz not null default now(),
  primary key (action_id, version)
);

-- VIDs the director assigns to Actions created in the form: A000-1000, A000-1001, ...
create sequence action_vid_seq start 1000;

-- Entries of an uploaded zip file (zipfile_check): names and hashes; encrypted entries were read with
-- the upload's zipfile_password.
create table file_library_entries (
  file_id integer not null references file_library(id) on delete cascade,
  position integer not null,
  name text not null,
  size bigint not null,
  sha256sum text not null,
  encrypted boolean not null default false,
  primary key (file_id, position)
);
alter table file_library add column zip_checked boolean not null default false;
