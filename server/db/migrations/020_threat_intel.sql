-- Threat-intel sources (the integrations menu's threat-intel integrations, JOB-029): a kind, the URL of
-- its API, and an optional API key encrypted like run-as secrets (AES-256-GCM under VIGIL_SECRET_KEY,
-- else DATA_DIR/secret.key); the key is write-only: no call ever answers it.
create table threat_intel_integrations (
  id serial primary key,
  name text not null,
  kind text not null,
  url text not null,
  api_key_ciphertext text,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index threat_intel_integrations_name on threat_intel_integrations (lower(name));
