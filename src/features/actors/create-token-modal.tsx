import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSnapshot } from 'valtio';
import { actorCommand, bulkTokenCreateSchema, type BulkTokenInput, type CreatedBulkToken } from '@/api/contracts/actors';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { Modal } from '@/ui/modal';
import { yupResolver } from '@/ui/yup-resolver';
import { CopyBlock } from './copy-button';
import { actorsStore } from './store';
import { formatTimestamp } from '@/ui/datetime';

function CreateForm() {
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<BulkTokenInput>({ resolver: yupResolver<BulkTokenInput>(bulkTokenCreateSchema), defaultValues: { name: '', hours: 24 } });
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      const created = (await commands.execute('actors.createToken', { ...values, form: false }, 'form')) as CreatedBulkToken;
      actorsStore.created = { ...created, name: values.name };
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create bulk token" className="flex flex-col gap-3">
      <FormAlert error={error} />
      <Field label="Name" autoFocus {...register('name')} error={errors.name?.message} />
      <Field label="Hours valid" type="number" min={1} max={720} {...register('hours')} error={errors.hours?.message} />
      <FormActions submitLabel="Create" onCancel={() => (actorsStore.createOpen = false)} busy={isSubmitting} />
    </form>
  );
}

/** The new token's secret, shown this once (the director keeps only its hash). */
function CreatedToken({ created }: { created: CreatedBulkToken & { name: string } }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p role="status">
        Bulk token {created.name || created.id} was created. It expires {formatTimestamp(created.expires_at)}.
      </p>
      <p className="font-medium">Copy the token now: this is the only time it is shown.</p>
      <CopyBlock text={created.token} label="Bulk token" />
      <p className="text-xs text-muted">Start an actor with it (from a Vigil checkout):</p>
      <CopyBlock text={actorCommand(window.location.origin, created.token)} label="Actor command" />
      <div className="flex justify-end">
        <Button variant="primary" onClick={close}>
          Done
        </Button>
      </div>
    </div>
  );
}

function close() {
  actorsStore.createOpen = false;
  actorsStore.created = null;
}

export function CreateTokenModal() {
  const { createOpen, created } = useSnapshot(actorsStore);
  return (
    <Modal open={createOpen} title="Create bulk token" onClose={close}>
      {createOpen && (created ? <CreatedToken created={created} /> : <CreateForm />)}
    </Modal>
  );
}
