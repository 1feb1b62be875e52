import { unwrap } from '../core.js';
import { type PagedList, singlePage } from '../pagination.js';
import type { Body, Invitation, InvitationRequest, Member, MemberChange } from '../types.js';
import { Resource } from './resource.js';

/** The team's people: /members… */
export class Members extends Resource {
  readonly invitations = new Invitations(this.core);

  /** GET /members. */
  list(): PagedList<Member, never> {
    return singlePage(() => unwrap(this.core.api.GET('/members')));
  }

  /**
   * PUT /members/{user}: a new role. `revokeKeys` also revokes the API keys the member made (listed in the
   * answer's `created_api_keys`); without it they keep working with their own role.
   */
  async setRole(
    userId: string,
    role: Body<'setMemberRole'>['role'],
    options: { revokeKeys?: boolean } = {},
  ): Promise<MemberChange> {
    const body = options.revokeKeys === undefined ? { role } : { role, revoke_keys: options.revokeKeys };
    return unwrap(this.core.api.PUT('/members/{user}', { params: { path: { user: userId } }, body }));
  }

  /** DELETE /members/{user}: the member as they were; `revokeKeys` as for setRole. */
  async remove(userId: string, options: { revokeKeys?: boolean } = {}): Promise<MemberChange> {
    const query = options.revokeKeys === undefined ? {} : { revoke_keys: options.revokeKeys };
    return unwrap(this.core.api.DELETE('/members/{user}', { params: { path: { user: userId }, query } }));
  }
}

/** /members/invitations. */
export class Invitations extends Resource {
  /** GET /members/invitations: the open ones. */
  list(): PagedList<Invitation, never> {
    return singlePage(() => unwrap(this.core.api.GET('/members/invitations')));
  }

  /** POST /members/invitations: emails (or answers) a link to join the team. */
  async create(body: InvitationRequest): Promise<Invitation> {
    return unwrap(this.core.api.POST('/members/invitations', { body }));
  }

  /** DELETE /members/invitations/{id}: the link stops working. */
  async delete(id: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/members/invitations/{id}', { params: { path: { id } } }));
  }
}
