/** Step 2 for cloud: inputs, outputs, ordered scripts (Setup first, Clean Up last) and attached files. */
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { CLOUD_SCRIPT_TEMPLATE, cloudScriptTypeAt } from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import { AddFileButton, AttachmentTable } from '@/features/action-form/attachments';
import { tableClass, tdClass, thClass, RemoveHeader } from '@/features/action-form/table-parts';
import { CodeEditorField } from '@/features/action-form/code-editor';
import { ErrorText, NumberInput, TextInput, inputClass, useFieldError } from '@/features/action-form/controls';
import { Section } from '@/ui/section';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';
import { StepList } from '@/features/action-form/step-list';

function CellInput({ name, label, disabled, mono }: { name: `cloud_action.inputs.${number}.name` | `cloud_action.inputs.${number}.default_value` | `cloud_action.outputs.${number}.name` | `cloud_action.files.${number}.variable_name`; label: string; disabled: boolean; mono?: boolean }) {
  const { register } = useFormContext<ActionFormValues>();
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-0.5">
      <input aria-label={label} aria-invalid={!!error} disabled={disabled} className={`${inputClass(!!error)} ${mono ? 'font-mono text-xs' : ''}`} {...register(name)} />
      <ErrorText id={`${name}-error`} message={error} />
    </div>
  );
}

function Inputs({ ro }: { ro: boolean }) {
  const { control } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'cloud_action.inputs' });
  const listError = useFieldError('cloud_action.inputs');
  return (
    <Section variant="card" title="Inputs" actions={<Button disabled={ro} onClick={() => append({ name: '', default_value: '' })}>+ Add Input</Button>}>
      {fields.length === 0 ? (
        <span className="text-sm text-muted">No inputs. Scripts read inputs[name].</span>
      ) : (
        <table className={tableClass} aria-label="Inputs">
          <thead>
            <tr>
              <th className={thClass}>Name *</th>
              <th className={thClass}>Default Value</th>
              <RemoveHeader />
            </tr>
          </thead>
          <tbody>
            {fields.map((f, i) => (
              <tr key={f.id}>
                <td className={tdClass}>
                  <CellInput name={`cloud_action.inputs.${i}.name`} label={`Input ${i + 1} name`} disabled={ro} mono />
                </td>
                <td className={tdClass}>
                  <CellInput name={`cloud_action.inputs.${i}.default_value`} label={`Input ${i + 1} default value`} disabled={ro} />
                </td>
                <td className={`${tdClass} text-right`}>
                  <Button variant="ghost" disabled={ro} onClick={() => remove(i)} aria-label={`Remove input ${i + 1}`}>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorText id="cloud-inputs-error" message={listError} />
    </Section>
  );
}

function Outputs({ ro }: { ro: boolean }) {
  const { control } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'cloud_action.outputs' });
  const listError = useFieldError('cloud_action.outputs');
  return (
    <Section variant="card" title="Outputs" actions={<Button disabled={ro} onClick={() => append({ name: '' })}>+ Add Output</Button>}>
      {fields.length === 0 ? (
        <span className="text-sm text-muted">No outputs. Scripts set outputs[name].</span>
      ) : (
        <ul className="flex flex-col gap-1">
          {fields.map((f, i) => (
            <li key={f.id} className="flex items-start gap-2">
              <div className="flex-1">
                <CellInput name={`cloud_action.outputs.${i}.name`} label={`Output ${i + 1} name`} disabled={ro} mono />
              </div>
              <Button variant="ghost" disabled={ro} onClick={() => remove(i)} aria-label={`Remove output ${i + 1}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ErrorText id="cloud-outputs-error" message={listError} />
    </Section>
  );
}

function Files({ ro }: { ro: boolean }) {
  const { control } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'cloud_action.files' });
  const files = useWatch<ActionFormValues, 'cloud_action.files'>({ name: 'cloud_action.files' }) ?? [];
  const listError = useFieldError('cloud_action.files');
  return (
    <Section variant="card" title="Files">
      {fields.length === 0 ? (
        <span className="text-sm text-muted">No files attached. Scripts read files[variable_name] as a local path.</span>
      ) : (
        <AttachmentTable
          label="Cloud files"
          rows={fields}
          fileIdAt={(i) => files[i]?.file_id}
          columns={[{ header: 'Variable Name *', cell: (i) => <CellInput name={`cloud_action.files.${i}.variable_name`} label="Variable Name" disabled={ro} mono /> }]}
          disabled={ro}
          onRemove={remove}
        />
      )}
      <ErrorText id="cloud-files-error" message={listError} />
      <AddFileButton
        type="cloud"
        attachedIds={files.map((f) => f.file_id)}
        onAttach={(added) => added.forEach((a, k) => append({ file_id: a.id, variable_name: a.orig_file_name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1') || `file_${fields.length + k + 1}` }))}
      />
    </Section>
  );
}

export function CloudForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const { getValues, setValue } = useFormContext<ActionFormValues>();
  const scripts = useWatch<ActionFormValues, 'cloud_action.scripts'>({ name: 'cloud_action.scripts' });
  const retype = () =>
    queueMicrotask(() => {
      const list = getValues('cloud_action.scripts');
      list.forEach((s, i) => {
        const t = cloudScriptTypeAt(i, list.length);
        if (s.script_type !== t) setValue(`cloud_action.scripts.${i}.script_type`, t, { shouldDirty: true });
      });
    });
  const titleOf = (i: number, count: number) => {
    const t = cloudScriptTypeAt(i, count);
    const name = scripts?.[i]?.name?.trim();
    const kind = t === 'setup' ? 'Setup' : t === 'cleanup' ? 'Clean Up' : `Step ${i + 1}`;
    return name && name !== kind ? `${kind}: ${name}` : kind;
  };
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <Inputs ro={ro} />
        <Outputs ro={ro} />
      </div>
      <Section
        title="Scripts"
        actions={
          <a href="/manage_sims/actions/cloud_python_help_info" target="_blank" rel="noopener" className="text-sm text-accent underline">
            Need Help?
          </a>
        }
      >
        <StepList
          name="cloud_action.scripts"
          noun="Script"
          disabled={ro}
          title={titleOf}
          summary={(i) => `${scripts?.[i]?.timeout ?? ''} s`}
          newItem={(count) => ({ name: `Step ${count}`, script_text: CLOUD_SCRIPT_TEMPLATE, script_type: null, timeout: 300 })}
          insertIndex={(count) => (count >= 2 ? count - 1 : count)}
          onChanged={retype}
        >
          {(i) => (
            <>
              <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
                <TextInput name={`cloud_action.scripts.${i}.name`} label="Name" required disabled={ro} className="md:col-span-2" />
                <NumberInput name={`cloud_action.scripts.${i}.timeout`} label="Timeout (s)" required limit={env.def.limits.script_timeout} disabled={ro} />
              </div>
              <CodeEditorField name={`cloud_action.scripts.${i}.script_text`} label="Script" required language="python" height="400px" tabSize={4} disabled={ro} />
            </>
          )}
        </StepList>
      </Section>
      <Files ro={ro} />
    </div>
  );
}
