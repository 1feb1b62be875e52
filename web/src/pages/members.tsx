import { useState } from 'preact/hooks';
import { api, call, canManage, type Schemas, type Session } from '../api';
import type { ConfirmChoice, ConfirmOptions } from '../feedback';
import { DataTable, ErrorText, formatDate, Page, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

type Role = Session['role'];
type Member = Schemas['Member'];
type ApiKey = Schemas['ApiKey'];
type Invitation = Schemas['Invitation'];
const ROLES: Role[] = ['member', 'admin', 'owner'];
const OWNERS_ONLY = 'Only an owner can change or remove an owner.';
const KEYS_STAY =
  'The API keys they created keep working unless you revoke them too: a key acts with its own role.';

/** Runs a change, then shows `done` (or what it makes of the answer) and reloads the page's lists. */
type Act = <T>(
  what: (choice: ConfirmChoice) => Promise<T>,
  done: string | ((answer: T) => string),
  ask?: ConfirmOptions,
) => Promise<boolean>;

/** What changing a role does: a lower role withdraws the invitations that person sent (src/users/member-routes.ts). */
function roleChangeNote(email: string, from: Role, to: Role): string {
  return isDemotion(from, to)
    ? `${email} is now ${to}; the open invitations they sent were withdrawn.`
    : `${email} is now ${to}.`;
}

function isDemotion(from: Role, to: Role): boolean {
  return ROLES.indexOf(to) < ROLES.indexOf(from);
}

/**
 * The team's active keys the user made, directly or through a key they made: those the server lists and
 * revokes with the member (src/accounts/team-keys.ts, keysMadeBy).
 */
function keysMadeBy(keys: readonly ApiKey[], userId: string): ApiKey[] {
  const theirs = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const key of keys) {
      const by = key.created_by;
      if (theirs.has(key.id) || !by) continue;
      if ((by.kind === 'user' && by.id === userId) || (by.kind === 'key' && theirs.has(by.id))) {
        theirs.add(key.id);
        grew = true;
      }
    }
  }
  return keys.filter((key) => theirs.has(key.id) && key.revoked_at === null);
}

function keyCount(count: number): string {
  return `${count} API key${count === 1 ? '' : 's'}`;
}

/** The confirmation's list of the member's keys and its box to revoke them (none when they made none). */
function keysQuestion(keys: readonly ApiKey[]): Pick<ConfirmOptions, 'items' | 'option'> {
  if (keys.length === 0) return {};
  return {
    items: keys.map((key) => `${key.name} (${key.prefix}…, ${key.mode})`),
    option: `Also revoke the ${keyCount(keys.length)} they created`,
  };
}

/** What became of the member's keys, from the answer's `created_api_keys`. */
function keysNote(answer: Schemas['MemberChange']): string {
  const keys = answer.created_api_keys;
  if (keys.length === 0) return '';
  const revoked = keys.every((key) => key.revoked_at !== null);
  return ` The ${keyCount(keys.length)} they created ${revoked ? 'were revoked' : 'still work'}.`;
}

function InviteForm({ roles, busy, act }: { roles: Role[]; busy: boolean; act: Act }) {
  const invite = async (event: Event) => {
    event.preventDefault();
    const formEl = event.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    const sent = await act(
      () =>
        call(
          api.POST('/members/invitations', {
            body: { email: String(form.get('email')), role: String(form.get('role')) as Role },
          }),
        ),
      `Invitation sent to ${String(form.get('email'))}.`,
    );
    // A refused invitation keeps what was typed, to correct it.
    if (sent) formEl.reset();
  };
  return (
    <form class="inline" onSubmit={invite}>
      <label for="invite-email">Invite by email</label>
      <input id="invite-email" name="email" type="email" required aria-describedby="members-error" />
      <label for="invite-role">Role</label>
      <select id="invite-role" name="role">
        {roles.map((r) => (
          <option key={r} value={r} selected={r === 'member'}>
            {r}
          </option>
        ))}
      </select>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}

const LAST_OWNER = 'The team’s only owner: make another member owner before removing or demoting them.';

interface MemberRowProps {
  member: Member;
  /** The team has no other owner: removing or demoting this one would be refused. */
  lastOwner: boolean;
  session: Session;
  roles: Role[];
  /** The member's active keys (keysMadeBy); empty for someone who cannot manage. */
  keys: ApiKey[];
  act: Act;
}

function MemberRow({ member: m, lastOwner, session, roles, keys, act }: MemberRowProps) {
  const manage = canManage(session);
  const ownerOnly = m.role === 'owner' && session.role !== 'owner';
  // What the server would refuse is not offered: a team keeps at least one owner.
  const locked = ownerOnly || lastOwner;

  const changeRole = async (select: HTMLSelectElement) => {
    const to = select.value as Role;
    // Only a demotion asks, and only when keys they made would keep working.
    const ask =
      isDemotion(m.role, to) && keys.length > 0
        ? {
            title: `Make ${m.email} ${to}?`,
            body: KEYS_STAY,
            action: 'Change role',
            ...keysQuestion(keys),
          }
        : undefined;
    const changed = await act(
      ({ checked }) =>
        call(
          api.PUT('/members/{user}', {
            params: { path: { user: m.user_id } },
            body: { role: to, ...(checked ? { revoke_keys: true } : {}) },
          }),
        ),
      (answer) => roleChangeNote(m.email, m.role, to) + keysNote(answer),
      ask,
    );
    // Declined or refused: the select goes back to the role they still have.
    if (!changed) select.value = m.role;
  };

  const remove = () =>
    act(
      ({ checked }) =>
        call(
          api.DELETE('/members/{user}', {
            params: { path: { user: m.user_id }, query: checked ? { revoke_keys: true } : {} },
          }),
        ),
      (answer) => `${m.email} removed.${keysNote(answer)}`,
      {
        title: `Remove ${m.email} from the team?`,
        body: `They are signed out of this team at once and need a new invitation to come back.${keys.length > 0 ? ` ${KEYS_STAY}` : ''}`,
        action: 'Remove member',
        ...keysQuestion(keys),
      },
    );

  return (
    <tr data-member={m.email}>
      <td>{m.email}</td>
      <td>
        {manage && !locked ? (
          <>
            <label class="sr-only" for={`role-${m.user_id}`}>
              Role of {m.email}
            </label>
            <select id={`role-${m.user_id}`} value={m.role} onChange={(e) => changeRole(e.currentTarget)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </>
        ) : (
          m.role
        )}
      </td>
      <td>{formatDate(m.created_at)}</td>
      {manage && (
        <td>
          {lastOwner ? (
            <span class="hint">{LAST_OWNER}</span>
          ) : (
            <>
              <button
                type="button"
                class="danger"
                disabled={ownerOnly}
                title={ownerOnly ? OWNERS_ONLY : undefined}
                onClick={remove}
              >
                Remove {m.email}
              </button>
              {ownerOnly && <span class="hint"> {OWNERS_ONLY}</span>}
            </>
          )}
        </td>
      )}
    </tr>
  );
}

function PendingInvitations({ list, act }: { list: Invitation[]; act: Act }) {
  return (
    <>
      <h2>Pending invitations</h2>
      <ul>
        {list.map((inv) => (
          <li key={inv.id}>
            {inv.email} ({inv.role}), expires{' '}
            <time dateTime={inv.expires_at}>{formatDate(inv.expires_at)}</time>{' '}
            <button
              type="button"
              onClick={() =>
                act(
                  () => call(api.DELETE('/members/invitations/{id}', { params: { path: { id: inv.id } } })),
                  'Invitation withdrawn.',
                  {
                    title: `Withdraw the invitation for ${inv.email}?`,
                    body: 'The emailed link stops working; you can invite them again later.',
                    action: 'Withdraw invitation',
                  },
                )
              }
            >
              Withdraw invitation for {inv.email}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

export function MembersPage({ session }: { session: Session }) {
  const members = useLoad(() => call(api.GET('/members')), []);
  const manage = canManage(session);
  const invitations = useLoad(
    () => (manage ? call(api.GET('/members/invitations')) : Promise.resolve({ data: [] })),
    [manage],
  );
  // The keys each member made, for the confirmation of a removal or demotion (managers only list them).
  const keys = useLoad(
    () => (manage ? call(api.GET('/keys')) : Promise.resolve({ data: [] as ApiKey[] })),
    [manage],
  );
  const { busy, error, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  // Only owners give or take the owner role (contract: Roles).
  const roles = session.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');
  const owners = members.data?.data.filter((m) => m.role === 'owner').length ?? 0;

  const act: Act = (what, done, ask) =>
    run(
      async (choice) => {
        setNote(null);
        const answer = await what(choice);
        setNote(typeof done === 'string' ? done : done(answer));
        members.reload();
        invitations.reload();
        keys.reload();
      },
      { ask },
    );

  return (
    <Page title="Members">
      {manage ? (
        <InviteForm roles={roles} busy={busy} act={act} />
      ) : (
        <p class="hint">Only admins and owners can invite or change members.</p>
      )}
      {manage && (
        <p class="hint">
          Only the invited address can accept an invitation. Invitations end when the person or key that sent
          them is removed, demoted or revoked, and a team can send a limited number a day.
        </p>
      )}
      <ErrorText error={error} id="members-error" />
      {note && <p role="status">{note}</p>}
      {members.loading && !members.data && <Skeleton label="Loading members…" rows={2} />}
      <ErrorText error={members.error} />
      <DataTable columns={['Email', 'Role', 'Since', manage && 'Remove']}>
        {members.data?.data.map((m) => (
          <MemberRow
            key={m.user_id}
            member={m}
            lastOwner={m.role === 'owner' && owners === 1}
            session={session}
            roles={roles}
            keys={keysMadeBy(keys.data?.data ?? [], m.user_id)}
            act={act}
          />
        ))}
      </DataTable>
      {manage && invitations.data && invitations.data.data.length > 0 && (
        <PendingInvitations list={invitations.data.data} act={act} />
      )}
    </Page>
  );
}
