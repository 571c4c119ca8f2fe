/**
 * The site banner (MON-027): an administrator's warning banner, in its chosen colour, shown to everyone
 * signed in (closable for the session); and its editor, with the text, the colour picker (MON-029,
 * MON-114) and the preview (MON-028), opened by settings.siteBanner.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { DEFAULT_SITE_BANNER, colorError, type SiteBanner as Banner } from '@/api/contracts/site-banner';
import { commands } from '@/commands/registry';
import { BannerPreview, WarningBanner } from '@/ui/banners';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { ColorInput } from '@/ui/color-input';
import { ExpandingTextArea } from '@/ui/expanding-textarea';
import { Modal } from '@/ui/modal';
import { useSubmit } from '@/ui/use-submit';
import { getSiteBanner, siteBannerQueryKey, siteBannerStore } from './site-banner-api';

const useSiteBanner = () => useQuery({ queryKey: siteBannerQueryKey, queryFn: getSiteBanner, refetchInterval: 60_000 });

export function SiteBanner() {
  const { data } = useSiteBanner();
  if (!data?.enabled || !data.text) return null;
  return (
    <div className="fixed top-1 left-1/2 z-[1040] w-[min(40rem,90vw)] -translate-x-1/2 shadow-lg">
      <WarningBanner closable color={data.color} key={`${data.text}${data.color}`}>
        {data.text}
      </WarningBanner>
    </div>
  );
}

function EditorForm({ initial, onDone }: { initial: Banner; onDone(): void }) {
  const [enabled, setEnabled] = useState(initial.enabled);
  const [text, setText] = useState(initial.text);
  const [color, setColor] = useState(initial.color);
  const [colorShown, setColorShown] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = colorError(color);
    setColorShown(problem);
    if (problem) return;
    void run(async () => {
      await commands.execute('settings.siteBanner', { enabled, text, color: color.trim() }, 'form');
      onDone();
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Site banner" className="flex flex-col gap-3">
      <FormAlert error={error} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Show the banner to everyone signed in
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        Banner text
        <ExpandingTextArea value={text} onChange={(e) => setText(e.target.value)} maxLength={500} className="text-ink" />
      </label>
      <ColorInput label="Banner colour" value={color} onChange={(v) => (setColor(v), setColorShown(null))} error={colorShown} />
      <BannerPreview text={text} color={colorError(color) ? undefined : color.trim()} />
      <FormActions submitLabel="Save Banner" onCancel={onDone} busy={busy} />
    </form>
  );
}

export function SiteBannerEditor() {
  const { editing } = useSnapshot(siteBannerStore);
  const { data, isLoading } = useQuery({ queryKey: siteBannerQueryKey, queryFn: getSiteBanner, enabled: editing });
  const close = () => (siteBannerStore.editing = false);
  return (
    <Modal open={editing} title="Site Banner" onClose={close}>
      {editing && (isLoading ? <p className="text-muted">Loading the site banner…</p> : <EditorForm initial={data ?? DEFAULT_SITE_BANNER} onDone={close} />)}
    </Modal>
  );
}
