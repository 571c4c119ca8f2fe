/**
 * Tag editing (monitors-actors-reporting.md section 5 "Tags", MON-107..113, MON-133, ACT-081): the
 * rules both the editor and the director apply, and the add/remove calls' shapes. A call posts the
 * form field `tag`; the reply's data holds `{type}_tags`, threat_actor_reference_id, name and
 * updated_at, and the reply carries a status.
 */
import * as yup from 'yup';
import { MSG } from './action-form/texts';

/** What can carry tags: Actions, actors (nodes) and simulations. */
export const TAGGABLES = ['actions', 'nodes', 'simulations'] as const;
export type Taggable = (typeof TAGGABLES)[number];
export const TAGGABLE_LABELS: Record<Taggable, string> = { actions: 'Action', nodes: 'Actor', simulations: 'Simulation' };

/** MON-046: a tag's loading state while a call is out. */
export type TagLoading = 'ADDING' | 'REMOVING' | 'COMPLETE';
/** MON-046: an option's state in the option list. */
export type TagOptionStatus = 'CHECKED' | 'UNCHECKED' | 'LOADING';

/** MON-108, MON-109, MON-149: the flash of a refused value (one text for the whole product). */
const invalidTagMessage = MSG.invalidTag;
/** ACT-081: tags named Group:Groupname group what carries them. */
export const GROUP_PREFIX = 'Group:';

export interface TagRuleOptions {
  /** Only tags that exist may be added (MON-108). */
  onlyExisting?: boolean;
  existing?: readonly string[];
  /** Source/destination tag type: parts joined by + each start with Src: or Dst: (MON-109). */
  srcDst?: boolean;
  /** Added when the value lacks it (MON-111), e.g. 'Group:'. */
  prefix?: string;
}

const SRC_DST_PART = /^(Src|Dst):.+$/;

/**
 * Why a value is refused: `empty` (MON-107, said beside the input) or `invalid`, not a tag value the
 * rules allow (MON-108, MON-109: the spec's flash alert, MON-149).
 */
export type TagRefusal = 'empty' | 'invalid';

/** The value to add, or the message that refuses it (MON-107..109, MON-111). */
export function checkTagValue(raw: string, opts: TagRuleOptions = {}): { ok: true; value: string } | { ok: false; message: string; refusal: TagRefusal } {
  let value = raw.trim();
  if (!value) return { ok: false, message: 'The value must not be empty.', refusal: 'empty' };
  if (opts.prefix && !value.toLowerCase().startsWith(opts.prefix.toLowerCase())) value = `${opts.prefix}${value}`;
  if (opts.srcDst && !value.split('+').every((p) => SRC_DST_PART.test(p.trim()))) return { ok: false, message: invalidTagMessage(value), refusal: 'invalid' };
  if (opts.onlyExisting && !(opts.existing ?? []).some((e) => e.toLowerCase() === value.toLowerCase())) return { ok: false, message: invalidTagMessage(value), refusal: 'invalid' };
  return { ok: true, value };
}

/** MON-110: the tag already there (any letter case), to highlight instead of adding. */
export const duplicateOf = (tags: readonly string[], value: string) => tags.find((t) => t.toLowerCase() === value.trim().toLowerCase());

/** MON-112: in list mode for user and verodin types, ATT&CK-prefixed product tags are hidden. */
export const listModeTags = <T extends { name: string; class_name: string }>(tags: readonly T[]) =>
  tags.filter((t) => !((t.class_name === 'user' || t.class_name === 'verodin') && /^ATT&CK\b/i.test(t.name)));

export const tagChangeSchema = yup
  .object({
    tag: yup.string().max(100, 'A tag is at most 100 characters').required('The value must not be empty.'),
  })
  .noUnknown('Unknown field: ${unknown}');

/** MON-133: the reply of an add or remove. */
export interface TagChangeReply {
  status: number;
  data: { user_tags: string[]; threat_actor_reference_id: string | null; name: string; updated_at: string };
  message?: string;
}

/** MON-132: one option of GET /tags/options.json: a tag of the asked type, whether it may be changed, and how many of the taggable type carry it. */
export interface TagOptionRow {
  name: string;
  editable: boolean;
  count: number;
}

/** MON-132 "GET {tag options path} with tag_type and taggableType | Answer data[tagType]." */
export interface TagOptionsAnswer {
  data: Record<string, TagOptionRow[]>;
}

export const tagOptionsQuerySchema = yup
  .object({
    tag_type: yup
      .string()
      .required('tag_type is required')
      .matches(/^[a-z][a-z0-9_]{0,39}$/, 'tag_type must be a tag type such as user, verodin or mitre_attack'),
    taggableType: yup
      .string<Taggable>()
      .required('taggableType is required')
      .oneOf([...TAGGABLES], `taggableType must be one of ${TAGGABLES.join(', ')}`),
  })
  .noUnknown('Unknown query parameter: ${unknown}');
