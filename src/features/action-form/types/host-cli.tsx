/** Step 2 for host_cli: attached files, Advanced Options, run-as profile, protection, shell and scripts. */
import { useEffect } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { DELIVERY_FAILED_RESULTS, DESTINATION_EXISTS_RESULTS, FILE_OWNERS, HOST_FILE_DEFAULTS, SHELLS, SHELL_LABELS } from '@/api/contracts/action-form';
import { HOST_CLI_CONDITIONS } from '@/api/contracts/action-form-host-cli';
import { AddFileButton, AttachmentTable } from '@/features/action-form/attachments';
import { CodeEditorField } from '@/features/action-form/code-editor';
import { CheckboxInput, ErrorText, NumberInput, SelectInput, TextAreaInput, YesNo, inputClass, optionsOf, useFieldError } from '@/features/action-form/controls';
import { Section } from '@/ui/section';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';

const RESULT_LABELS: Record<string, string> = { blocked: 'Blocked', errored: 'Errored', success: 'Success', overwrite: 'Overwrite', use_existing: 'Use Existing' };
const OWNER_LABELS: Record<string, string> = { match_action: 'Match Action (run-as user)', system: 'System' };

function DestinationDirectory({ index, disabled }: { index: number; disabled: boolean }) {
  const { register } = useFormContext<ActionFormValues>();
  const error = useFieldError(`host_cli_action.files.${index}.destination_directory`);
  return (
    <div className="flex flex-col gap-0.5">
      <input
        aria-label="Destination Directory"
        aria-invalid={!!error}
        disabled={disabled}
        className={`${inputClass(!!error)} w-full min-w-56 font-mono text-xs`}
        {...register(`host_cli_action.files.${index}.destination_directory`)}
      />
      <ErrorText id={`hc-file-${index}-dir-error`} message={error} />
    </div>
  );
}

export function HostCliForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const { control, register, setValue } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'host_cli_action.files' });
  const [files, profile, monitor, requireProtected, approveAnywhere, shell, executionPlan] = useWatch<
    ActionFormValues,
    [
      'host_cli_action.files',
      'host_cli_action.action_user_profile_id',
      'host_cli_action.monitor_connections',
      'host_cli_action.require_protected',
      'host_cli_action.approve_anywhere',
      'host_cli_action.shell',
      'host_cli_action.execution_plan',
    ]
  >({
    name: [
      'host_cli_action.files',
      'host_cli_action.action_user_profile_id',
      'host_cli_action.monitor_connections',
      'host_cli_action.require_protected',
      'host_cli_action.approve_anywhere',
      'host_cli_action.shell',
      'host_cli_action.execution_plan',
    ],
  });
  const malicious = (files ?? []).some((f) => env.knownFiles[f.file_id]?.file_restrictions === 'restricted_malicious');
  const forced = !!monitor || malicious;

  // Monitor connections or a malicious file: Require Protected Theater is set and Approve Anywhere is off.
  useEffect(() => {
    if (!forced || ro) return;
    if (!requireProtected) setValue('host_cli_action.require_protected', true, { shouldDirty: true });
    if (approveAnywhere) setValue('host_cli_action.approve_anywhere', false, { shouldDirty: true });
  }, [forced, requireProtected, approveAnywhere, setValue, ro]);
  // Run as System: no interactive session.
  useEffect(() => {
    if (profile == null && !ro) setValue('host_cli_action.require_run_as_interactive', false);
  }, [profile, setValue, ro]);

  const python = shell === 'python';
  const helpUrl = python ? '/manage_sims/actions/host_cli_python_help_info' : '/manage_sims/actions/host_cli_help_info';

  return (
    <div className="flex flex-col gap-3">
      <Section variant="card" title="Files">
        {fields.length > 0 ? (
          <AttachmentTable
            label="Host CLI files"
            rows={fields}
            fileIdAt={(i) => files?.[i]?.file_id}
            columns={[
              { header: 'Destination Directory *', cell: (i) => <DestinationDirectory index={i} disabled={ro} /> },
              {
                header: 'Destination Name',
                cell: (i) => <input aria-label="Destination Name" placeholder="(keep the file name)" disabled={ro} className={`${inputClass(false)} font-mono text-xs`} {...register(`host_cli_action.files.${i}.destination_name`)} />,
              },
              {
                header: 'File Owner',
                cell: (i) => (
                  <select aria-label="File Owner" disabled={ro} className={inputClass(false)} {...register(`host_cli_action.files.${i}.file_owner`)}>
                    {FILE_OWNERS.map((o) => (
                      <option key={o} value={o}>
                        {OWNER_LABELS[o] ?? o}
                      </option>
                    ))}
                  </select>
                ),
              },
              ...(env.brtAuth
                ? [
                    {
                      header: 'Randomize File',
                      cell: (i: number) => <input type="checkbox" aria-label="Randomize File" disabled={ro} className="accent-[rgb(var(--accent))]" {...register(`host_cli_action.files.${i}.randomize_file`)} />,
                    },
                  ]
                : []),
            ]}
            disabled={ro}
            onRemove={remove}
          />
        ) : (
          <span className="text-sm text-muted">No files attached.</span>
        )}
        <AddFileButton type="host_cli" attachedIds={(files ?? []).map((f) => f.file_id)} onAttach={(added) => added.forEach((a) => append({ file_id: a.id, ...HOST_FILE_DEFAULTS }))} />
      </Section>

      <Section variant="card" title="Advanced Options" collapsible defaultOpen>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <NumberInput name="host_cli_action.delivery_wait_time" label="Delivery Wait Time (s)" required limit={env.def.limits.delivery_wait_time} disabled={ro} />
          <SelectInput name="host_cli_action.delivery_failed_result" label="Delivery Failed Result" options={optionsOf(DELIVERY_FAILED_RESULTS, RESULT_LABELS)} required disabled={ro} />
          <SelectInput name="host_cli_action.destination_exists_result" label="Destination Exists Result" options={optionsOf(DESTINATION_EXISTS_RESULTS, RESULT_LABELS)} required disabled={ro} />
          <CheckboxInput name="host_cli_action.monitor_connections" label="Monitor Network Connections" disabled={ro} hint="Requires the protected theater." />
          <CheckboxInput name="host_cli_action.separate_cleanup_shell" label="Separate Cleanup Shell" disabled={ro} />
          <CheckboxInput name="host_cli_action.automatic_file_cleanup" label="Automatic File Cleanup" disabled={ro} />
        </div>
        {(env.def.execution_plan || executionPlan != null) && <TextAreaInput name="host_cli_action.execution_plan" label="Execution Plan" rows={4} disabled={ro} />}
      </Section>

      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <SelectInput
          name="host_cli_action.action_user_profile_id"
          label="Run-as User Profile"
          numeric
          emptyLabel="Run as System"
          options={env.def.action_user_profiles.map((p) => ({ value: String(p.id), label: `${p.friendly_name} (${p.username})` }))}
          disabled={ro}
        />
        <CheckboxInput name="host_cli_action.require_run_as_interactive" label="Require Run as Interactive" disabled={ro || profile == null} hint={profile == null ? 'Choose a run-as user profile first.' : undefined} className="self-end pb-1" />
        <CheckboxInput name="sim_action.uac" label="Run Elevated (UAC)" disabled={ro} className="self-end pb-1" />
      </div>

      {env.protectedTheater && (
        <div className="grid grid-cols-1 gap-3 rounded border border-line p-3 md:grid-cols-2" role="group" aria-label="Protected actor">
          <YesNo
            name="host_cli_action.require_protected"
            label="Require Protected Theater"
            disabled={ro || forced || !!approveAnywhere}
            hint={forced ? (monitor ? 'Required: the Action monitors network connections.' : 'Required: a file attached is restricted as malicious.') : undefined}
          />
          <YesNo name="host_cli_action.approve_anywhere" label="Approve to Run Anywhere" disabled={ro || forced || !!requireProtected} />
        </div>
      )}

      <div className="flex items-end gap-3">
        <SelectInput name="host_cli_action.shell" label="Shell" options={optionsOf(SHELLS, SHELL_LABELS)} required disabled={ro} className="w-48" />
        <a href={helpUrl} target="_blank" rel="noopener" className="pb-2 text-sm text-accent underline">
          Need Help?
        </a>
      </div>

      <CodeEditorField
        name="host_cli_action.raw_text"
        label="Script"
        required
        language={python ? 'python' : 'host_cli'}
        height="400px"
        tabSize={2}
        disabled={ro}
        hint={python ? 'A Python script.' : `A command line, then an indented line "prompt_regex sleep_seconds check_logs_boolean [max_timeout_seconds]" (e.g. "  auto 4 true 60"), then indented conditions: ${HOST_CLI_CONDITIONS.join(', ')}.`}
      />
      <CodeEditorField
        name="host_cli_action.cleanup_raw_text"
        label="Cleanup Script"
        language={python ? 'python' : 'host_cli'}
        height="200px"
        tabSize={2}
        disabled={ro}
        hint='Optional. Same syntax; cleanup commands usually end with the "cleanup" condition (e.g. "  auto 3 true 60").'
      />
    </div>
  );
}
