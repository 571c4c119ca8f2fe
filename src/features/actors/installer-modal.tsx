import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { installerLink, type InstallerOption } from '@/api/contracts/actors';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { getInstallerOptions, installerQueryKey } from './api';
import { CopyBlock } from './copy-button';
import { actorsStore } from './store';

function OsBox({ option, selfSigned }: { option: InstallerOption; selfSigned: boolean }) {
  const command = selfSigned ? option.selected_command : option.deselected_command;
  return (
    <section aria-label={option.label} className="flex flex-col gap-2 rounded border border-line p-3">
      <h3 className="text-sm font-semibold">{option.label}</h3>
      <p className="text-xs text-muted">{option.message}</p>
      {option.url && option.file ? (
        <>
          <a href={installerLink(option.url, selfSigned)} download={option.file} className="self-start rounded border border-line bg-raised px-2.5 py-1 text-sm hover:bg-line/60">
            Download {option.file}
          </a>
          {command && <CopyBlock stacked text={command} label={`${option.label} install command`} />}
        </>
      ) : (
        <p className="text-xs font-medium">No download for {option.label}.</p>
      )}
    </section>
  );
}

/** MON-017: title, one box per OS, a self-signed checkbox (ticked by default), a Close button. */
export function InstallerModal() {
  const { installerFor } = useSnapshot(actorsStore);
  const [selfSigned, setSelfSigned] = useState(true);
  const close = () => {
    actorsStore.installerFor = null;
    setSelfSigned(true);
  };
  const q = useQuery({ queryKey: installerQueryKey(installerFor ?? 0), queryFn: () => getInstallerOptions(installerFor ?? 0), enabled: installerFor !== null });
  return (
    <Modal open={installerFor !== null} title="Download Actor Installer" onClose={close} size="lg" footer={<Button onClick={close}>Close</Button>}>
      <label className="mb-3 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={selfSigned} onChange={(e) => setSelfSigned(e.target.checked)} />
        Self-signed certificate (the director's TLS certificate is not verified)
      </label>
      {q.isPending && <p className="text-muted">Loading installers…</p>}
      {q.isError && <p role="alert">{q.error.message}</p>}
      {q.data && (
        <div className="grid gap-3 md:grid-cols-3">
          {q.data.map((o) => (
            <OsBox key={o.os} option={o} selfSigned={selfSigned} />
          ))}
        </div>
      )}
    </Modal>
  );
}
