-- PCAP ingestion (actions.md: PCAP upload record, Conversation, PCAP upload states and rules).
-- Plain PostgreSQL 15 SQL that PGlite 0.5 also runs.
--
-- Capture bytes are files, not bytea: DATA_DIR/pcap/uploads/{id}.cap holds the upload as received
-- (pcap or pcapng) with {id}.cap.idx (8 bytes per packet: its record offset); the processed capture
-- an Action replays is DATA_DIR/pcap/processed/{id}.pcap (+ .idx). An upload row is also the
-- capture's library entry: pcap_library_id is the upload's own id once its capture is stored.

create table pcap_uploads (
  id serial primary key,
  user_id integer references users(id) on delete set null,
  orig_filename text not null,
  -- 'Uploading', 'Processing', 'Completed', or one of the spec's 'Error: ...' texts.
  status text not null,
  percent_complete integer not null default 0 check (percent_complete between 0 and 100),
  bytes_read bigint not null default 0,
  size bigint not null default 0,
  pcap_library_id integer,
  valid_upload boolean not null default false,
  has_two_ips boolean not null default false,
  contains_udp boolean not null default false,
  remove_non_ip_info boolean not null default false,
  converted boolean not null default false,
  stripped_vlan_tags boolean not null default false,
  anonymized_ip boolean not null default false,
  anonymized_mac boolean not null default false,
  layer_2_exists boolean not null default false,
  -- [{level, message}] about the capture itself (warnings about the remaining conversations are
  -- computed when answering, so they follow removals).
  notifications jsonb not null default '[]'::jsonb,
  -- Reader facts: format, byte order, interfaces and sections (to read packets back), counts.
  summary jsonb not null default '{}'::jsonb,
  -- Address mapping {ip: [[orig, anon]...], mac: [...]} in order of appearance.
  mapping jsonb not null default '{"ip": [], "mac": []}'::jsonb,
  -- The Action made from this upload, and its processed capture (packets, bytes).
  action_id integer references actions(id) on delete set null,
  processed_packets integer,
  processed_size bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index pcap_uploads_user_idx on pcap_uploads (user_id, id desc);
create index pcap_uploads_action_idx on pcap_uploads (action_id);

-- Conversations of an upload, as tshark's conversation statistics count them, with the spec's
-- fields. conv_index is the row in order of appearance (the processed capture filters on it).
create table pcap_conversations (
  id serial primary key,
  upload_id integer not null references pcap_uploads(id) on delete cascade,
  conv_index integer not null,
  -- ISO 8601 UTC with nanoseconds (sorts as text).
  timestamp text not null,
  source_address text not null,
  dest_address text not null,
  protocol text not null check (protocol in ('tcp', 'udp')),
  service text not null default '',
  source_port integer not null,
  dest_port integer not null,
  data_size bigint not null,
  info text not null default '',
  missed_bytes bigint not null default 0,
  frames_a_to_b integer not null,
  bytes_a_to_b bigint not null,
  frames_b_to_a integer not null,
  bytes_b_to_a bigint not null,
  rel_start double precision not null,
  duration double precision not null,
  orig_source_address text not null,
  orig_dest_address text not null,
  unique (upload_id, conv_index)
);
create index pcap_conversations_order_idx on pcap_conversations (upload_id, timestamp, conv_index);
