/** Step 2: the form of the chosen type. */
import { NumberInput } from './controls';
import { useFormEnv } from './form-env';
import { CloudForm } from './types/cloud';
import { EmailForm, FileTransferForm } from './types/delivery';
import { HostCliForm } from './types/host-cli';
import { PcapUploadForm } from './types/pcap';
import { CaptiveDnsForm, CaptiveIocUrlForm, DnsForm, PcapForm, PortScanForm, SleepForm } from './types/simple';
import { SocketForm, WebsiteForm } from './types/steps';
import { WebRequestForm } from './types/web-request';
import { ACTION_TYPE_LABELS, type ActionType } from '@/api/contracts/vocabulary';

function TypeForm({ type }: { type: ActionType }) {
  const env = useFormEnv();
  switch (type) {
    case 'dns':
      return <DnsForm />;
    case 'captive_dns':
      return <CaptiveDnsForm />;
    case 'captive_ioc_url':
      return <CaptiveIocUrlForm />;
    case 'port_scan':
      return <PortScanForm />;
    case 'sleep':
      return <SleepForm />;
    case 'email':
      return <EmailForm />;
    case 'socket':
      return <SocketForm />;
    case 'website':
      return <WebsiteForm />;
    case 'file_transfer':
      return <FileTransferForm />;
    case 'host_cli':
      return <HostCliForm />;
    case 'cloud':
      return <CloudForm />;
    case 'web_request':
      return <WebRequestForm />;
    case 'pcap':
    case 'captive_ioc_pcap':
      return env.mode !== 'edit' && env.def.pcap_upload ? <PcapUploadForm type={type} /> : <PcapForm type={type} />;
  }
}

const OWN_TIMEOUT: readonly ActionType[] = ['sleep', 'captive_ioc_url'];

export function StepType({ type }: { type: ActionType | '' }) {
  const env = useFormEnv();
  if (!type) return <p className="text-muted">Select an Action Type in step 1 to see its details.</p>;
  return (
    <div className="flex flex-col gap-4" data-type-form={type}>
      <p className="text-xs text-muted">{ACTION_TYPE_LABELS[type]}</p>
      <TypeForm key={type} type={type} />
      {!OWN_TIMEOUT.includes(type) && (
        <div className="grid grid-cols-1 gap-3 border-t border-line pt-3 md:grid-cols-3">
          <NumberInput name="sim_action.timeout_ms" label="Action Timeout (ms)" limit={env.def.limits.timeout_ms} disabled={!env.canCreate} hint="Empty: the director's default." />
        </div>
      )}
    </div>
  );
}
