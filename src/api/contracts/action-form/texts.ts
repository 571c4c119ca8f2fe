/** Texts the spec gives verbatim (actions.md sections 5-8). */
// Texts the spec gives verbatim.

export const MSG = {
  mustBeFilled: 'must be filled',
  cantBeBlank: "can't be blank",
  saveFailed: 'Warning! Validation errors kept this Action from saving successfully. Please see below.',
  selectType: 'Warning! Validation errors kept this Action from saving successfully. Select an Action Type.',
  duplicateAttach: 'Cannot attach a file that is already attached to the Action',
  attached: 'Successfully attached file',
  uploadedAttached: 'Successfully uploaded and attached file',
  unattached: 'Successfully unattached file',
  uploadFailed: 'An error occurred.',
  cloudIneligible: 'This Action is not eligible for approval because it has a file attached that is restricted as malicious.',
  cloudPending: 'A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.',
  invalidTag: (tag: string) => `"${tag}" is not a valid tag value.`,
} as const;
