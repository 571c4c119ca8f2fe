import { lazy, Suspense, type ReactNode } from 'react';
import type { HostCommand, PreviewDetailByType, PreviewProps, WebRequestPreview } from '@/api/contracts/library';
import { LOG_UNAVAILABLE, logLines, webValue, yesNo } from './format';
import { RestrictionBadge } from './icons';
import { Fields, Mono, Table } from './ui';
import { Section } from '@/ui/section';

const CodeView = lazy(() => import('./code-view'));

const pre = (text: string, label?: string) => (
  <pre aria-label={label} className="max-h-64 overflow-auto rounded bg-raised p-2 font-mono text-2xs whitespace-pre-wrap">
    {text || '--'}
  </pre>
);

function Commands({ title, commands }: { title: string; commands: HostCommand[] }) {
  if (!commands.length) return null;
  return (
    <Section title={title}>
      <ol className="flex flex-col gap-2">
        {commands.map((c, i) => (
          <li key={i} className="rounded border border-line p-2">
            <code className="block font-mono text-2xs break-all">{c.command}</code>
            <div className="mt-1 flex flex-wrap gap-x-4 text-2xs text-muted">
              <span>prompt {c.prompt ?? '--'}</span>
              <span>sleep {c.sleep_seconds ?? '--'} s</span>
              <span>check logs {yesNo(c.check_logs)}</span>
              <span>timeout {c.max_timeout_seconds ?? '--'} s</span>
            </div>
            {c.conditions.length > 0 && (
              <ul className="mt-1 font-mono text-2xs">
                {c.conditions.map((cond, j) => (
                  <li key={j}>{cond}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}

function HostCli({ d }: { d: PreviewDetailByType['host_cli'] }) {
  const python = d.commands.shell_type === 'python';
  return (
    <>
      <Fields
        rows={[
          ['Shell', d.commands.shell_type],
          ['Run as', d.run_as ?? 'Actor default'],
          ['Delivery wait time', d.files.delivery_wait_time === null ? '--' : `${d.files.delivery_wait_time} s`],
          ['Delivery failed result', d.files.delivery_failed_result ?? '--'],
          ['Destination exists result', d.files.destination_exists_result ?? '--'],
          ['Automatic file cleanup', yesNo(d.files.automatic_file_cleanup)],
        ]}
      />
      {python ? (
        <Section title="Script">
          <Suspense fallback={pre(d.commands.raw_text, 'Script')}>
            <CodeView value={d.commands.raw_text} label="Python script (read-only)" />
          </Suspense>
        </Section>
      ) : (
        <Commands title="Commands" commands={d.commands.commands} />
      )}
      <Commands title="Cleanup" commands={d.commands.cleanup} />
      <Section title="Files">
        <Table
          label="Attached files"
          head={['File', 'Destination', 'Owner', 'Status']}
          empty="No files."
          rows={d.files.file_list.map((f) => [
            <span key="n" title={f.sha256sum}>
              {f.orig_file_name}
            </span>,
            <Mono key="d">{`${f.destination_directory}${f.destination_name}`}</Mono>,
            f.file_owner || '--',
            <RestrictionBadge key="r" restriction={f.file_restrictions} />,
          ])}
        />
      </Section>
      {d.file_cleanup.length > 0 && (
        <Section title="File Cleanup (latest run)">
          <ul className="flex flex-col gap-1 text-sm">
            {d.file_cleanup.map((r, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-2">
                <Mono>{r.filename}</Mono>
                {r.removed ? <span className="font-semibold text-emerald-500">SUCCESSFULLY REMOVED</span> : <span className="font-semibold text-red-500">FAILED TO REMOVE</span>}
                {!r.removed && r.result && <span className="text-muted">{r.result}</span>}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}

function Pcap({ d }: { d: PreviewDetailByType['pcap'] }) {
  return (
    <Fields
      rows={[
        [
          'Capture',
          <span key="f" className="flex flex-wrap items-center gap-3">
            <Mono>{d.file.name || '--'}</Mono>
            {/* The .pcap suffix keeps a new tab from getting the workbench page instead of the file. */}
            <a href={`/manage_sims/actions/download/${d.file.sim_id}.pcap`} target="_blank" rel="noopener noreferrer" className="text-accent underline">
              Download
            </a>
            {d.file.preview_link ? (
              <a href={d.file.preview_link} target="_blank" rel="noopener noreferrer" className="text-accent underline">
                Packet View
              </a>
            ) : null}
            {!d.file.stored && <span className="text-2xs text-muted">(the capture file is not stored on this director)</span>}
          </span>,
        ],
        ['Attacker IP', <Mono key="a">{d.attacker_ip || '--'}</Mono>],
        ['Destination IP', <Mono key="d">{d.destination_ip || '--'}</Mono>],
        ['Anonymized IP / MAC', `${yesNo(d.anonymized_ip)} / ${yesNo(d.anonymized_mac)}`],
        ['Hex view', yesNo(d.has_hex)],
        ['HTTP traffic', yesNo(d.has_http_traffic)],
      ]}
    />
  );
}

function WebRequest({ d }: { d: WebRequestPreview }) {
  const kv = (list: { key: string; value: string }[] | undefined, label: string) =>
    list && list.length ? (
      <Table label={label} head={['Key', 'Value']} rows={list.map((p) => [<Mono key="k">{webValue(p.key)}</Mono>, <Mono key="v">{webValue(p.value)}</Mono>])} />
    ) : (
      '--'
    );
  return (
    <>
      <Fields
        rows={[
          ['Host', <Mono key="h">{webValue(d.host)}</Mono>],
          ['Profile', webValue(d.profile)],
          ['Path', <Mono key="p">{webValue(d.path)}</Mono>],
          ['HTTP method', webValue(d.http_method)],
          ['Encode URL', webValue(d.encode_url)],
          ['Body', <Mono key="b">{webValue(d.body)}</Mono>],
          ['Auto Content-Length', webValue(d.request?.auto_content_length)],
          ['Auto Host header', webValue(d.request?.auto_host_header)],
        ]}
      />
      <Section title="Parameters">{kv(d.request?.parameters, 'Parameters')}</Section>
      <Section title="Headers">{kv(d.request?.headers, 'Headers')}</Section>
      <Section title="Conditions">
        {d.conditions && d.conditions.length ? (
          <Table
            label="Conditions"
            head={['Code', 'Response regex', 'Result']}
            rows={d.conditions.map((c) => [webValue(c.code), <Mono key="r">{webValue(c.response_regex)}</Mono>, webValue(c.pass_fail_error)])}
          />
        ) : (
          '--'
        )}
      </Section>
    </>
  );
}

function Cloud({ d }: { d: PreviewDetailByType['cloud'] }) {
  const lines = logLines(d.logs);
  return (
    <>
      <Section title="Inputs">
        <Table label="Inputs" head={['Name', 'Default value']} empty="No inputs." rows={d.inputs.map((i) => [<Mono key="n">{i.name}</Mono>, <Mono key="v">{i.default_value || '--'}</Mono>])} />
      </Section>
      <Section title="Files">
        <Table
          label="Cloud files"
          head={['File', 'Variable', 'Status']}
          empty="No files."
          rows={d.files.file_list.map((f) => [f.orig_file_name, <Mono key="v">{f.variable_name ?? '--'}</Mono>, <RestrictionBadge key="r" restriction={f.file_restrictions} />])}
        />
      </Section>
      <Section title="Outputs">{d.outputs.length ? <Mono>{d.outputs.map((o) => o.name).join(', ')}</Mono> : <p className="text-muted">No outputs.</p>}</Section>
      <Section title="Scripts">
        <ol className="flex flex-col gap-2">
          {d.scripts.map((s) => (
            <li key={s.id} className="flex flex-col gap-1">
              <div className="text-sm font-medium">
                {s.id}. {s.name}
                {s.script_type && <span className="ml-2 text-2xs text-muted">({s.script_type === 'setup' ? 'Setup' : s.script_type === 'cleanup' ? 'Clean Up' : s.script_type})</span>}
                {s.timeout !== null && <span className="ml-2 text-2xs text-muted">timeout {s.timeout} s</span>}
              </div>
              {pre(s.script_text, `Script ${s.name}`)}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Logs">{lines ? pre(lines.join('\n'), 'Logs') : <p className="text-muted">{LOG_UNAVAILABLE}</p>}</Section>
    </>
  );
}

/** The type-specific part of the preview (actions.md section 3 "Preview detail by type"). */
export function TypeDetail({ p }: { p: PreviewProps }): ReactNode {
  switch (p.action_type) {
    case 'captive_dns':
      return <Fields rows={[['Query', <Mono key="q">{p.detail.query}</Mono>], ['Query type', p.detail.query_type], ['Response', <Mono key="r">{p.detail.response}</Mono>]]} />;
    case 'captive_ioc_url':
      return (
        <Section title="URLs">
          <ul className="flex flex-col font-mono text-2xs">
            {p.detail.urls.map((u, i) => (
              <li key={i} className="break-all">
                {u}
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'dns':
      return <Fields rows={[['Query type', p.detail.query_type], ['Domain', <Mono key="d">{p.detail.domain}</Mono>], ['DNS server', p.detail.domain_server || 'Default']]} />;
    case 'email':
      return (
        <>
          <Fields rows={[['Subject', p.detail.subject], ['MIME type', p.detail.mime_text_type]]} />
          <Section title="Body">{pre(p.detail.body, 'Email body')}</Section>
          <Section title="Attachments">
            <Table
              label="Attachments"
              head={['File', 'Encoding', 'Ignore if missing', 'Status']}
              empty="No attachments."
              rows={p.detail.file_attachments.map((f) => [f.orig_file_name, f.attachment_encoding ?? '--', yesNo(f.ignore_if_missing), <RestrictionBadge key="r" restriction={f.file_restrictions} />])}
            />
          </Section>
        </>
      );
    case 'file_transfer':
      return (
        <Fields
          rows={[
            ['File', p.detail.file ? <span key="f" className="inline-flex flex-wrap items-center gap-2">{p.detail.file.orig_file_name} <RestrictionBadge restriction={p.detail.file.file_restrictions} /></span> : '--'],
            ['Direction', p.detail.direction],
            ['App layer / port', `${p.detail.app_layer || '--'} / ${p.detail.target_port ?? '--'}`],
            ['Method', p.detail.method],
            ['Tunnel', p.detail.tunnel_protocol],
            ['Request domain', p.detail.request_domain ?? '--'],
            ['Forward DNS', p.detail.forward_DNS ?? '--'],
            ['CIDR', p.detail.cidr ?? '--'],
            ['Encoding', p.detail.encoding || '--'],
            ['User agent', p.detail.user_agent || '--'],
            ['MD5', <Mono key="m">{p.detail.md5sum ?? '--'}</Mono>],
            ['SHA1', <Mono key="s1">{p.detail.sha1sum ?? '--'}</Mono>],
            ['SHA256', <Mono key="s2">{p.detail.sha256sum ?? '--'}</Mono>],
          ]}
        />
      );
    case 'host_cli':
      return <HostCli d={p.detail} />;
    case 'pcap':
    case 'captive_ioc_pcap':
      return <Pcap d={p.detail} />;
    case 'port_scan':
      return <Fields rows={[['Ports', <Mono key="p">{p.detail.ports_list}</Mono>], ['Sleep timer', `${p.detail.sleep_timer}`], ['Randomize scan', yesNo(p.detail.randomize_scan)]]} />;
    case 'socket':
      return (
        <>
          <Fields rows={[['Communication', p.detail.comm_type.toUpperCase()], ['Server port', String(p.detail.server_port)]]} />
          <Section title="Steps">
            <Table label="Steps" head={['#', 'Request', 'Response']} rows={p.detail.steps.map((s, i) => [i + 1, <Mono key="q">{s.request || '--'}</Mono>, <Mono key="r">{s.response || '--'}</Mono>])} />
          </Section>
        </>
      );
    case 'website':
      return (
        <>
          <Fields rows={[['Use HTTPS', yesNo(p.detail.use_https)], ['Server port', String(p.detail.server_port)], ['HTTP version', p.detail.http_ver]]} />
          <Section title="Steps">
            <Table
              label="Steps"
              head={['#', 'Request', 'Response code', 'Response']}
              rows={p.detail.steps.map((s, i) => [i + 1, <Mono key="q">{s.request || '--'}</Mono>, s.resp_code, <Mono key="r">{s.response.slice(0, 200) || '--'}</Mono>])}
            />
          </Section>
        </>
      );
    case 'web_request':
      return <WebRequest d={p.detail} />;
    case 'cloud':
      return <Cloud d={p.detail} />;
    case 'sleep':
      return null;
  }
}
