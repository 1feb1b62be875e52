import { useState } from 'preact/hooks';
import { api, call, canManage, type Session } from '../api';
import type { ConfirmOptions } from '../feedback';
import { DataTable, ErrorText, formatDate, Page, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

type Role = Session['role'];
const ROLES: Role[] = ['member', 'admin', 'owner'];
const OWNERS_ONLY = 'Only an owner can change or remove an owner.';

/** What changing a role does: a lower role withdraws the invitations that person sent (issue 24). */
function roleChangeNote(email: string, from: Role, to: Role): string {
  const lower = ROLES.indexOf(to) < ROLES.indexOf(from);
  return lower
    ? `${email} is now ${to}; the open invitations they sent were withdrawn.`
    : `${email} is now ${to}.`;
}

export function MembersPage({ session }: { session: Session }) {
  const members = useLoad(() => call(api.GET('/members')), []);
  const manage = canManage(session);
  const invitations = useLoad(
    () => (manage ? call(api.GET('/members/invitations')) : Promise.resolve({ data: [] })),
    [manage],
  );
  const { busy, error, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  // Only owners give or take the owner role (contract: Roles).
  const roles = session.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');

  /** True once `what` succeeded (its error is shown otherwise). */
  const act = async (what: () => Promise<unknown>, done: string, ask?: ConfirmOptions): Promise<boolean> => {
    return run(
      async () => {
        setNote(null);
        await what();
        setNote(done);
        members.reload();
        invitations.reload();
      },
      { ask },
    );
  };

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
    <Page title="Members">
      {manage ? (
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
          <tr key={m.user_id} data-member={m.email}>
            <td>{m.email}</td>
            <td>
              {manage && (session.role === 'owner' || m.role !== 'owner') ? (
                <>
                  <label class="sr-only" for={`role-${m.user_id}`}>
                    Role of {m.email}
                  </label>
                  <select
                    id={`role-${m.user_id}`}
                    value={m.role}
                    onChange={(e) =>
                      act(
                        () =>
                          call(
                            api.PUT('/members/{user}', {
                              params: { path: { user: m.user_id } },
                              body: { role: e.currentTarget.value as Role },
                            }),
                          ),
                        roleChangeNote(m.email, m.role, e.currentTarget.value as Role),
                      )
                    }
                  >
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
                <button
                  type="button"
                  class="danger"
                  disabled={m.role === 'owner' && session.role !== 'owner'}
                  title={m.role === 'owner' && session.role !== 'owner' ? OWNERS_ONLY : undefined}
                  onClick={() =>
                    act(
                      () => call(api.DELETE('/members/{user}', { params: { path: { user: m.user_id } } })),
                      `${m.email} removed.`,
                      {
                        title: `Remove ${m.email} from the team?`,
                        body: 'They are signed out of this team at once and need a new invitation to come back.',
                        action: 'Remove member',
                      },
                    )
                  }
                >
                  Remove {m.email}
                </button>
                {m.role === 'owner' && session.role !== 'owner' && <span class="hint"> {OWNERS_ONLY}</span>}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {manage && invitations.data && invitations.data.data.length > 0 && (
        <>
          <h2>Pending invitations</h2>
          <ul>
            {invitations.data.data.map((inv) => (
              <li key={inv.id}>
                {inv.email} ({inv.role}), expires{' '}
                <time dateTime={inv.expires_at}>{formatDate(inv.expires_at)}</time>{' '}
                <button
                  type="button"
                  onClick={() =>
                    act(
                      () =>
                        call(api.DELETE('/members/invitations/{id}', { params: { path: { id: inv.id } } })),
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
      )}
    </Page>
  );
}
