import { unwrap } from '../core.js';
import { type PagedList, singlePage } from '../pagination.js';
import type { Body, Invitation, InvitationRequest, Member } from '../types.js';
import { Resource } from './resource.js';

/** The team's people: /members… */
export class Members extends Resource {
  readonly invitations = new Invitations(this.core);

  /** GET /members. */
  list(): PagedList<Member, never> {
    return singlePage(() => unwrap(this.core.api.GET('/members')));
  }

  /** PUT /members/{user}: a new role. */
  async setRole(userId: string, role: Body<'setMemberRole'>['role']): Promise<Member> {
    return unwrap(
      this.core.api.PUT('/members/{user}', { params: { path: { user: userId } }, body: { role } }),
    );
  }

  /** DELETE /members/{user}. */
  async remove(userId: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/members/{user}', { params: { path: { user: userId } } }));
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
