-- File-tailing integrations (Suricata EVE, nftables/ulogd JSON): the file the director follows.
alter table integrations add column source_path text;

-- Security labs built by `npm run lab` (server/lab/): what each lab created in the director, so
-- `npm run lab -- --down` (or a re-run after a crash) removes exactly that.
create table labs (
  prefix text primary key,
  bulk_token_id integer references actor_bulk_tokens(id) on delete set null,
  integration_id integer references integrations(id) on delete set null,
  device_id integer references devices(id) on delete set null,
  zone_ids integer[] not null default '{}',
  link_ids integer[] not null default '{}',
  created_at timestamptz not null default now()
);
