import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import type { IntegrationNewForm } from '@/api/contracts/integrations';
import { commands } from '@/commands/registry';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { Modal } from '@/ui/modal';
import { notifyModalSuccess } from '@/ui/table-refresh';
import { useSubmit } from '@/ui/use-submit';
import { getIntegrationForm } from './api';
import { integrationsStore } from './store';

function CreateForm({ form, onDone }: { form: IntegrationNewForm; onDone(): void }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(form.fields.map((f) => [f.name, f.value])));
  const { busy, error, run } = useSubmit();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await commands.execute('integrations.create', { type: form.integration_type, name: values.name ?? '', ...(values.source_path !== undefined ? { source_path: values.source_path } : {}) }, 'form');
      notifyModalSuccess({ integration_type: form.integration_type });
      onDone();
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={form.title} className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <img src={form.logo_path} alt="" className="h-4 w-[70px]" />
        <span className="text-sm text-muted">{form.brand_name}</span>
      </div>
      <p className="text-xs text-muted">{form.description}</p>
      <FormAlert error={error} />
      {form.fields.map((f, i) => (
        <div key={f.name} className="flex flex-col gap-0.5">
          <Field label={f.label} name={f.name} required={f.required} autoFocus={i === 0} placeholder={f.placeholder} value={values[f.name] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))} />
          <span className="text-2xs text-muted">{f.help}</span>
        </div>
      ))}
      <FormActions submitLabel="Add Integration" onCancel={onDone} busy={busy} />
    </form>
  );
}

/** The creation modal (JOB-029): its form comes from /integrations/new.js?integration_type={type}&remote={bool}. */
export function IntegrationCreateModal() {
  const { adding } = useSnapshot(integrationsStore);
  const form = useQuery({ queryKey: ['integrations', 'new', adding?.type, adding?.remote], queryFn: () => getIntegrationForm(adding!.type, adding!.remote), enabled: !!adding, staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false });
  const close = () => (integrationsStore.adding = null);
  return (
    <Modal open={!!adding} title={form.data?.title ?? 'Add Integration'} onClose={close}>
      {form.error ? (
        <p role="alert">{form.error.message}</p>
      ) : form.data ? (
        // Keyed by the kind only: nothing refetching the form's description wipes what the user typed.
        <CreateForm key={`${form.data.integration_type}:${String(form.data.remote)}`} form={form.data} onDone={close} />
      ) : (
        <p className="text-muted">Loading the form…</p>
      )}
    </Modal>
  );
}
