/** Step 3: tags (except file attachment tags) and the six dimension pickers built from trees. */
import { useMemo } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { ChipPicker, type ChipOption } from './chip-picker';
import { useFieldError } from './controls';
import { useFormEnv } from './form-env';
import type { ActionFormValues } from './form-model';
import { TreeSelect } from './tree-select';
import { DIMENSION_TYPES } from '@/api/contracts/vocabulary';

const GROUP_LABELS: Record<string, string> = {
  mitre_attack: 'MITRE ATT&CK',
  os: 'OS',
  src_dst: 'Source/Destination',
  control: 'Control',
  malware_family: 'Malware Family',
  threat_actor: 'Threat Actor',
  verodin: 'Product',
  user: 'User',
};

function DimensionPicker({ index }: { index: number }) {
  const env = useFormEnv();
  const { control } = useFormContext<ActionFormValues>();
  const tree = env.def.dimension_trees[index];
  const error = useFieldError(`trees.${index}.id`);
  if (!tree) return null;
  return (
    <Controller
      control={control}
      name={`trees.${index}.id`}
      render={({ field }) => <TreeSelect label={tree.label} tree={tree.tree} value={field.value ?? null} onChange={(v) => field.onChange(v)} error={error} disabled={!env.canCreate} required={tree.required} />}
    />
  );
}

export function StepTags() {
  const env = useFormEnv();
  const { control } = useFormContext<ActionFormValues>();
  const verodinError = useFieldError('tags.verodin_tags');
  const userError = useFieldError('tags.user_tags');
  const { verodin, user } = useMemo(() => {
    const v: ChipOption[] = [];
    const u: ChipOption[] = [];
    const sorted = [...env.tags].sort((a, b) => (a.tag_type === b.tag_type ? (a.code ?? a.name).localeCompare(b.code ?? b.name) : a.tag_type.localeCompare(b.tag_type)));
    for (const t of sorted) {
      if (t.tag_type === 'file_attachment') continue;
      const option = { value: t.name, label: t.code ? `${t.code} ${t.name}` : t.name, group: GROUP_LABELS[t.tag_type] ?? t.tag_type };
      (t.field === 'user_tags' ? u : v).push(option);
    }
    return { verodin: v, user: u };
  }, [env.tags]);

  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Controller
          control={control}
          name="tags.verodin_tags"
          render={({ field }) => <ChipPicker label="Tags" options={verodin} value={field.value} onChange={field.onChange} error={verodinError} disabled={!env.canCreate} hint="Product and MITRE ATT&CK tags." />}
        />
        <Controller
          control={control}
          name="tags.user_tags"
          render={({ field }) => (
            <ChipPicker label="User Tags" options={user} value={field.value} onChange={field.onChange} error={userError} disabled={!env.canCreate} allowCreate hint="Group tags follow the convention Group:Groupname." />
          )}
        />
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold">Dimensions</legend>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {DIMENSION_TYPES.map((_, i) => (
            <DimensionPicker key={i} index={i} />
          ))}
        </div>
      </fieldset>
    </div>
  );
}
