-- Domain schema: tags, dimension trees, the action library and its files, simulations, the network
-- (zones, actors, devices, links), jobs with their steps and action results, detection content,
-- integrations and run-as user profiles. Field names follow the specs (actions.md,
-- jobs-simulations-network-map.md, monitors-actors-reporting.md, section 3 of each).
-- Plain PostgreSQL 15 SQL that PGlite 0.5 also runs: btree indexes only (no pg_trgm, no gin).

-- ---------------------------------------------------------------------------------------------
-- Tags. class_name is the tag family; tag_type the group a tag is shown under (user, verodin,
-- mitre_attack, os, src_dst, control, threat_actor, malware_family, file_attachment, ...).
-- code holds ATT&CK ids (TA0001, T1059, T1059.001); a sub-technique is a code with a dot.
create table tags (
  id serial primary key,
  name text not null,
  class_name text not null check (class_name in ('user', 'verodin', 'mitre_attack')),
  tag_type text not null,
  code text,
  editable boolean not null default true,
  created_at timestamptz not null default now(),
  unique (class_name, name)
);
create index tags_code_idx on tags (code);
create index tags_lower_name_idx on tags (lower(name));
create index tags_type_idx on tags (tag_type, name);

-- ATT&CK technique -> tactic(s) (a Tag's "tactics" / "tactic_names").
create table tag_tactics (
  tag_id integer not null references tags(id) on delete cascade,
  tactic_tag_id integer not null references tags(id) on delete cascade,
  primary key (tag_id, tactic_tag_id)
);
create index tag_tactics_tactic_idx on tag_tactics (tactic_tag_id);

-- ---------------------------------------------------------------------------------------------
-- Dimension trees: one root per type (parent_id null, named after the type label), children below.
create table dimensions (
  id serial primary key,
  type text not null check (type in ('attack_vector', 'attacker_location', 'behavior_type', 'covert', 'os_platform', 'stage_of_attack')),
  parent_id integer references dimensions(id) on delete cascade,
  name text not null,
  param_name text not null,
  position integer not null default 0,
  unique (id, type),
  unique (type, param_name)
);
create index dimensions_tree_idx on dimensions (type, parent_id, position);
create index dimensions_parent_idx on dimensions (parent_id);

-- Default dimension values applied when creating an Action of a type (actions.md section 4, Form).
create table dimension_defaults (
  action_type text not null,
  dimension_type text not null,
  dimension_id integer not null,
  primary key (action_type, dimension_type),
  foreign key (dimension_id, dimension_type) references dimensions(id, type) on delete cascade
);

-- ---------------------------------------------------------------------------------------------
-- Run-as user profiles (host_cli action_user_profile_id, job step action_user_profile_*).
create table action_user_profiles (
  id serial primary key,
  friendly_name text not null,
  username text not null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Actions. details holds the type-specific form fields of actions.md section 3 "Type fields (form)",
-- under their spec names. Common fields (timeout_ms, uac, require_protected, approve_anywhere,
-- monitor_connections) are columns and are not repeated in details; attached files are rows of
-- action_files (details.file_transfer_library_id mirrors the single file_transfer attachment).
create table actions (
  id serial primary key,
  vid text not null unique,
  name text not null,
  description text not null default '',
  orig_description text not null default '',
  notes text not null default '',
  action_type text not null check (action_type in (
    'dns', 'port_scan', 'captive_dns', 'captive_ioc_url', 'captive_ioc_pcap', 'file_transfer', 'email',
    'socket', 'host_cli', 'website', 'pcap', 'web_request', 'sleep', 'cloud')),
  version integer not null default 1,
  approved boolean not null default false,
  disabled boolean not null default false,
  decommissioned boolean not null default false,
  require_protected boolean not null default false,
  approve_anywhere boolean not null default false,
  monitor_connections boolean not null default false,
  timeout_ms integer,
  uac boolean not null default false,
  details jsonb not null default '{}'::jsonb,
  event_filter_rules jsonb not null default '[]'::jsonb,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index actions_lower_name_idx on actions (lower(name));
create index actions_name_idx on actions (name);
create index actions_type_idx on actions (action_type, id);
create index actions_updated_idx on actions (updated_at desc, id desc);
create index actions_unapproved_idx on actions (approved, id);

create table action_tags (
  action_id integer not null references actions(id) on delete cascade,
  tag_id integer not null references tags(id) on delete cascade,
  primary key (action_id, tag_id)
);
create index action_tags_tag_idx on action_tags (tag_id, action_id);

-- Exactly one selected tree node per dimension type and Action (the six pickers).
create table action_dimensions (
  action_id integer not null references actions(id) on delete cascade,
  dimension_type text not null,
  dimension_id integer not null,
  primary key (action_id, dimension_type),
  foreign key (dimension_id, dimension_type) references dimensions(id, type) on delete cascade
);
create index action_dimensions_dimension_idx on action_dimensions (dimension_id, action_id);

-- ---------------------------------------------------------------------------------------------
-- File library (file attachments and file_transfer payloads). content is null when only metadata is kept.
create table file_library (
  id serial primary key,
  orig_file_name text not null,
  sha256sum text not null,
  sha1sum text not null default '',
  md5sum text not null default '',
  size integer not null default 0,
  file_notes text not null default '',
  file_restrictions text not null default 'pending_approval' check (file_restrictions in ('none', 'pending_approval', 'restricted_malicious')),
  os_tree_id integer references dimensions(id) on delete set null,
  content bytea,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index file_library_sha256_idx on file_library (sha256sum);
create index file_library_lower_name_idx on file_library (lower(orig_file_name));
create index file_library_restrictions_idx on file_library (file_restrictions, id);

-- user_tags and verodin_tags of a file entry (tags.class_name tells which).
create table file_tags (
  file_id integer not null references file_library(id) on delete cascade,
  tag_id integer not null references tags(id) on delete cascade,
  primary key (file_id, tag_id)
);
create index file_tags_tag_idx on file_tags (tag_id);

-- A file attached to an Action. details: host_cli {destination_directory, destination_name, file_owner,
-- randomize_file}; email {attachment_encoding, ignore_if_missing}; cloud uses variable_name.
-- Removing a file from an Action keeps it in the library (no cascade from the file side).
create table action_files (
  id serial primary key,
  action_id integer not null references actions(id) on delete cascade,
  file_id integer not null references file_library(id) on delete restrict,
  position integer not null default 0,
  variable_name text,
  details jsonb not null default '{}'::jsonb,
  unique (action_id, file_id)
);
create index action_files_file_idx on action_files (file_id);

-- Common detection alerts and Snort-style signatures of an Action.
create table detection_alerts (
  id serial primary key,
  action_id integer not null references actions(id) on delete cascade,
  source text not null,
  message text not null,
  source_identifier text not null default ''
);
create index detection_alerts_action_idx on detection_alerts (action_id);

create table signatures (
  id serial primary key,
  action_id integer not null references actions(id) on delete cascade,
  text text not null
);
create index signatures_action_idx on signatures (action_id);

-- ---------------------------------------------------------------------------------------------
-- Simulations: sequences and evaluations, made of ordered steps (groups) of ordered actions.
create table simulations (
  id serial primary key,
  vid text not null unique,
  name text not null,
  description text not null default '',
  simulation_type text not null check (simulation_type in ('sequence', 'eval')),
  disabled boolean not null default false,
  decommissioned boolean not null default false,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index simulations_type_idx on simulations (simulation_type, id);
create index simulations_lower_name_idx on simulations (lower(name));

create table simulation_steps (
  id serial primary key,
  simulation_id integer not null references simulations(id) on delete cascade,
  position integer not null,
  name text not null default '',
  unique (simulation_id, position)
);

create table simulation_step_actions (
  id serial primary key,
  step_id integer not null references simulation_steps(id) on delete cascade,
  action_id integer not null references actions(id) on delete cascade,
  position integer not null,
  unique (step_id, position)
);
create index simulation_step_actions_action_idx on simulation_step_actions (action_id);

create table simulation_tags (
  simulation_id integer not null references simulations(id) on delete cascade,
  tag_id integer not null references tags(id) on delete cascade,
  primary key (simulation_id, tag_id)
);
create index simulation_tags_tag_idx on simulation_tags (tag_id);

-- ---------------------------------------------------------------------------------------------
-- Network: security zones, actors (nodes), devices and map links.
create table zones (
  id serial primary key,
  name text not null unique,
  description text not null default '',
  cidr text not null default ''
);

create table nodes (
  id serial primary key,
  name text not null,
  friendly_name text not null default '',
  node_type text not null check (node_type in ('endpoint', 'protected', 'network', 'cloud', 'email')),
  os_base text not null default 'linux',
  os text not null default '',
  node_version text not null default '',
  msi_service_version text,
  deps_installed boolean not null default false,
  status text not null default 'pending' check (status in ('online', 'offline', 'pending')),
  status_details text,
  security_zone_id integer references zones(id) on delete set null,
  mgmt_address text not null default '',
  sim_address text not null default '',
  monitor_address text not null default '',
  sandbox_node_id integer references nodes(id) on delete set null,
  username text not null default '',
  last_heartbeat_at timestamptz,
  token_hash text,
  capabilities jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index nodes_zone_idx on nodes (security_zone_id);
create index nodes_status_idx on nodes (status, id);
create index nodes_lower_name_idx on nodes (lower(name));
create unique index nodes_token_hash_idx on nodes (token_hash) where token_hash is not null;

-- An actor's user_tags.
create table node_tags (
  node_id integer not null references nodes(id) on delete cascade,
  tag_id integer not null references tags(id) on delete cascade,
  primary key (node_id, tag_id)
);
create index node_tags_tag_idx on node_tags (tag_id);

-- interfaces: [{name, ip_address, zone_id}]; a device sits between the zones its interfaces name.
create table devices (
  id serial primary key,
  name text not null,
  description text not null default '',
  device_type text not null,
  prevention_enabled boolean not null default false,
  interfaces jsonb not null default '[]'::jsonb
);

create table device_zones (
  device_id integer not null references devices(id) on delete cascade,
  zone_id integer not null references zones(id) on delete cascade,
  primary key (device_id, zone_id)
);

-- Map links between items named '{zone|node|device}_{id}'; compliment_id is the reverse link's id.
create table topology_links (
  id serial primary key,
  id1 text not null check (id1 ~ '^(zone|node|device)_[0-9]+$'),
  id2 text not null check (id2 ~ '^(zone|node|device)_[0-9]+$'),
  compliment_id integer
);
create index topology_links_id1_idx on topology_links (id1);

-- ---------------------------------------------------------------------------------------------
-- Integrations (security technologies reporting events).
create table integrations (
  id serial primary key,
  name text not null,
  brand_name text not null default '',
  type text not null,
  remote boolean not null default false,
  host text not null default '',
  logo_path text not null default '',
  enabled boolean not null default true,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Jobs. user_id null shows as 'Scheduled Process'. published_status: 0 none, 1 publishing, 2 published.
create table jobs (
  id serial primary key,
  name text not null,
  status text not null check (status in ('sleeping', 'pending', 'waiting', 'preparing', 'running', 'reverting', 'errored', 'cancelled', 'completed')),
  progress integer not null default 0 check (progress between 0 and 100),
  simulation_id integer references simulations(id) on delete set null,
  action_id integer references actions(id) on delete set null,
  user_id integer references users(id) on delete set null,
  assessment_name text,
  published_status integer not null default 0 check (published_status in (0, 1, 2)),
  latest_published_time timestamptz,
  latest_published_pipeline text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index jobs_status_id_idx on jobs (status, id desc);
create index jobs_created_at_idx on jobs (created_at desc, id desc);
create index jobs_lower_name_idx on jobs (lower(name));
create index jobs_user_idx on jobs (user_id, id desc);
create index jobs_simulation_idx on jobs (simulation_id, id desc);
create index jobs_action_idx on jobs (action_id, id desc);

-- A step (group) of a job; destination_node_id is null for single-actor steps (dns, host_cli, cloud).
create table job_steps (
  id serial primary key,
  job_id integer not null references jobs(id) on delete cascade,
  step_id integer references simulation_steps(id) on delete set null,
  group_order integer not null,
  name text not null default '',
  source_node_id integer references nodes(id) on delete set null,
  destination_node_id integer references nodes(id) on delete set null,
  action_user_profile_name text,
  action_user_profile_friendly_name text
);
create index job_steps_job_idx on job_steps (job_id, group_order);

-- One action run. blocked is null when the control's blocking was not evaluated.
create table job_actions (
  id serial primary key,
  job_step_id integer not null references job_steps(id) on delete cascade,
  job_id integer not null references jobs(id) on delete cascade,
  action_id integer references actions(id) on delete set null,
  position integer not null default 0,
  sim_action_vid text not null,
  name text not null,
  action_type text not null,
  status text not null check (status in ('pending', 'running', 'waiting', 'reverting', 'errored', 'cancelled', 'not run', 'incompatible', 'ran', 'completed')),
  alerted boolean not null default false,
  blocked boolean,
  blocked_msg text,
  detected_msg text,
  events integer not null default 0,
  suspect_events integer not null default 0,
  disabled boolean not null default false,
  evidence jsonb not null default '{}'::jsonb,
  started_at timestamptz,
  finished_at timestamptz
);
create index job_actions_step_idx on job_actions (job_step_id, position);
create index job_actions_job_idx on job_actions (job_id);
create index job_actions_action_idx on job_actions (action_id, job_id desc);
create index job_actions_vid_idx on job_actions (sim_action_vid, job_id desc);

-- Events an integration reported for a job action (the events modal); suspicious ones are suspect_events.
create table job_action_events (
  id serial primary key,
  job_action_id integer not null references job_actions(id) on delete cascade,
  integration_id integer references integrations(id) on delete set null,
  description text not null,
  raw_event text not null default '',
  suspicious boolean not null default false,
  occurred_at timestamptz not null default now()
);
create index job_action_events_action_idx on job_action_events (job_action_id);
