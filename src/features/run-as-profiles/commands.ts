import * as yup from 'yup';
import { runAsProfileCreateSchema, runAsProfileUpdateSchema, type RunAsProfile, type RunAsProfileCreate, type RunAsProfileUpdate } from '@/api/contracts/run-as-profiles';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { noticeFlash } from '@/ui/toasts';
import { createProfile, deleteProfile, getProfiles, profilesQueryKey, updateProfile } from './api';
import { profilesStore } from './store';

const canManage = (ctx: CommandContext) => ctx.permissions.has('actors.manage');
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: profilesQueryKey });
const PANE_URL = '/action_user_profiles';
const PANE_KIND = 'action-user-profiles';
/**
 * Edit and Delete act on the profile named, else the pane's selection: listed in the profiles pane, in a
 * terminal, or while a profile is selected; hidden elsewhere (the Start pane has no profile to act on).
 */
const onProfile = (ctx: CommandContext, a?: ProfileRef) => !!a?.profile || !ctx.dock || profilesStore.selectedId !== null || ctx.activePane?.kind === PANE_KIND;

/** The palette's pick list: the profiles by friendly name (loaded by the pane, or on first use). */
const profileArg = () =>
  yup
    .string()
    .oneOf([...profilesStore.known.map((p) => p.friendly_name), undefined], 'Choose one of the run-as user profiles')
    .label('Profile (default: the selected one)')
    .optional();

type ProfileRef = { profile?: string | undefined };

/** The profile a command acts on: the one named, else the pane's selection. */
async function profileId(args: ProfileRef | undefined): Promise<number> {
  if (args?.profile) {
    let hit = profilesStore.known.find((p) => p.friendly_name === args.profile);
    if (!hit) hit = (await getProfiles()).find((p) => p.friendly_name === args.profile);
    if (!hit) throw new Error(`There is no run-as user profile named ${args.profile}.`);
    return hit.id;
  }
  if (profilesStore.selectedId === null) throw new Error('Select a run-as user profile in the Run-as User Profiles pane first, or name one.');
  return profilesStore.selectedId;
}

const nameOf = (id: number) => profilesStore.known.find((p) => p.id === id)?.friendly_name ?? `profile ${id}`;

/** Without values (palette, toolbar) a form opens in the pane; with values (a script, the form's submit) the call is made. */
const wantsForm = (values: object, ctx: CommandContext) => Object.values(values).every((v) => v === undefined) && !!ctx.dock && typeof document !== 'undefined';

type CreateArgs = Partial<RunAsProfileCreate>;
type EditArgs = ProfileRef & RunAsProfileUpdate;

export const runAsProfilesCommands: AnyCommand[] = [
  defineCommand<CreateArgs, RunAsProfile | null>({
    id: 'runAs.create',
    title: 'Add Run-as User Profile',
    buttonLabel: 'Add Profile',
    category: 'Run-as',
    keywords: ['run as', 'user', 'account', 'profile', 'action_user_profiles', 'new'],
    when: canManage,
    args: yup.object({
      friendly_name: yup.string().label('Friendly name (empty opens the form)').optional(),
      username: yup.string().label('Username').optional(),
      secret: yup.string().label('Password (optional, kept encrypted)').optional(),
    }) as yup.Schema<CreateArgs>,
    run: async (args, ctx) => {
      if (wantsForm(args ?? {}, ctx)) {
        ctx.dock?.openUrl(PANE_URL);
        profilesStore.form = 'new';
        return null;
      }
      const input = runAsProfileCreateSchema.validateSync(args, { abortEarly: false });
      const row = await createProfile(input);
      profilesStore.selectedId = row.id;
      noticeFlash(`Run-as user profile ${row.friendly_name} (${row.username}) was added.`);
      await refresh(ctx);
      return row;
    },
  }),
  defineCommand<EditArgs, RunAsProfile | null>({
    id: 'runAs.edit',
    title: 'Edit Run-as User Profile',
    buttonLabel: 'Edit',
    category: 'Run-as',
    keywords: ['run as', 'user', 'account', 'profile', 'rename', 'password'],
    when: (ctx, a) => canManage(ctx) && onProfile(ctx, a),
    get args() {
      return yup.object({
        profile: profileArg(),
        friendly_name: yup.string().label('New friendly name (all empty opens the form)').optional(),
        username: yup.string().label('New username').optional(),
        secret: yup.string().label('New password').optional(),
        clear_secret: yup.boolean().optional(),
      }) as yup.Schema<EditArgs>;
    },
    run: async (args, ctx) => {
      const { profile, ...changes } = args ?? {};
      const id = await profileId({ profile });
      if (wantsForm(changes, ctx)) {
        ctx.dock?.openUrl(PANE_URL);
        profilesStore.selectedId = id;
        profilesStore.form = id;
        return null;
      }
      const input = runAsProfileUpdateSchema.validateSync(changes, { abortEarly: false });
      const row = await updateProfile(id, input);
      noticeFlash(`Run-as user profile ${row.friendly_name} was saved.`);
      await refresh(ctx);
      return row;
    },
  }),
  defineCommand<ProfileRef, { id: number; message: string } | null>({
    id: 'runAs.delete',
    title: 'Delete Run-as User Profile',
    buttonLabel: 'Delete',
    category: 'Run-as',
    keywords: ['run as', 'user', 'account', 'profile', 'remove'],
    when: (ctx, a) => canManage(ctx) && onProfile(ctx, a),
    get args() {
      return yup.object({ profile: profileArg() }) as yup.Schema<ProfileRef>;
    },
    run: async (args, ctx) => {
      const id = await profileId(args);
      if (!(await ctx.confirm(`Delete the run-as user profile ${nameOf(id)}?`, { confirmLabel: 'Delete Profile', cancelLabel: 'Keep Profile' }))) return null;
      try {
        const done = await deleteProfile(id);
        noticeFlash(done.message);
        return done;
      } finally {
        await refresh(ctx);
      }
    },
  }),
];
