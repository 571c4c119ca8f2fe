/** The form's calls: definition, loaded values, tags, save answers, the Action picker. */
import { type ActionType, type DimensionType, type FileRestriction } from '../vocabulary';
import { FORM_LIMITS } from './options';
import type { ActionFormPayload } from './payload';

// The form's calls: definition, loaded values, tags, save answers.

export interface DimensionTreeNode {
  id: number;
  name: string;
  param_name: string;
  children: DimensionTreeNode[];
}

export interface DimensionTree {
  type: DimensionType;
  label: string;
  required: boolean;
  tree: DimensionTreeNode;
}

export interface FormDefinition {
  action_types: { value: ActionType; label: string }[];
  dimension_trees: DimensionTree[];
  /** Default dimension node ids per action type, applied when creating. */
  dimension_defaults: Partial<Record<ActionType, Partial<Record<DimensionType, number>>>>;
  dns_servers: { id: number; name: string; address: string }[];
  action_user_profiles: { id: number; friendly_name: string; username: string }[];
  web_request_profiles: string[];
  limits: typeof FORM_LIMITS;
  /** Present when the director supplies an execution plan for host_cli (the text area is shown only then). */
  execution_plan: boolean;
  flags: { brt_auth: boolean; protected_theater: boolean };
  /** Whether the PCAP upload calls exist on this director. */
  pcap_upload: boolean;
}

export interface TagOption {
  id: number;
  name: string;
  class_name: 'user' | 'verodin' | 'mitre_attack';
  tag_type: string;
  code: string | null;
  editable: boolean;
  /** The hidden field the tag is submitted in: user_tags or verodin_tags (verodin and mitre_attack). */
  field: 'user_tags' | 'verodin_tags';
}

export interface TagsAnswer {
  tags: TagOption[];
}

/** Display data of an attached or library file. */
export interface FileDisplay {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
  size: number;
}

export interface LoadedAction {
  id: number;
  vid: string;
  version: number;
  approved: boolean;
  /** Vendor content (VID A1..) cannot be edited, only cloned. */
  vendor: boolean;
  action_type: ActionType;
  updated_at: string;
  created_at: string;
  values: ActionFormPayload;
  /** Display data of every attached file, by id. */
  files: FileDisplay[];
}

export interface SaveAnswer {
  id: number;
  vid: string;
  version: number;
  approved: boolean;
  notice: string;
}

export interface PickerAction {
  id: number;
  vid: string;
  name: string;
  action_type: ActionType;
  vendor: boolean;
}
