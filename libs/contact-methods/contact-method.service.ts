import { conflict, DomainError, type FieldError, invalidInput, notFound, tooMany } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { ContactMethodRepository } from './contact-method.repository.js';
import type {
  ContactMethodDocument,
  ContactMethodPatch,
  CreateContactMethodInput,
} from './contact-method.schema.js';
import { CONTACT_EVENTS } from './contact-method.schema.js';
import { CARRIER_NEEDED, type PersonReach } from './person-reach.js';
import { CODE_VALID_MS, checkCode, MAX_CODE_FAILURES, newCode, sendRefusal } from './verification-code.js';

/** What a method of each type is, in a sentence: "Nothing can send to an SMS number yet". */
const METHOD_NOUNS: Record<ContactMethodDocument['type'], string> = {
  email: 'an e-mail address',
  sms: 'an SMS number',
  voice: 'a phone number for calls',
  signal: 'a Signal number',
  ntfy: 'an ntfy topic',
  pushover: 'a Pushover user',
  telegram: 'a Telegram chat',
};

/** Methods a person keeps at most. */
export const MAX_METHODS_PER_PERSON = 10;

/** The message a code goes out in (a call reads its digits one by one). */
function codeMessage(code: string) {
  const minutes = CODE_VALID_MS / 60_000;
  return {
    title: 'Your webmon verification code',
    text: `Your webmon verification code is ${code}. It is valid for ${minutes} minutes. If you did not ask for it, ignore this message.`,
    spoken: `Your webmon verification code is ${code.split('').join(', ')}. Again: ${code.split('').join(', ')}.`,
  };
}

const fieldError = (path: string, message: string): FieldError[] => [{ path, message }];

/**
 * A person's own contact methods: added unverified, a code sent through the organization's tool for
 * the type, verified by entering it; only verified ones are paged.
 */
export class ContactMethodService {
  constructor(
    private readonly deps: {
      methods: ContactMethodRepository;
      reach: Pick<PersonReach, 'reach' | 'canReach'>;
      /** A person's additions one at a time, so that two at once cannot both add one address. */
      mutex: Pick<RedisMutex, 'withLock'>;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  list(organizationId: number, userId: number): Promise<ContactMethodDocument[]> {
    return this.deps.methods.ofUser(organizationId, userId);
  }

  async get(organizationId: number, userId: number, id: number): Promise<ContactMethodDocument> {
    const method = await this.deps.methods.find(organizationId, userId, id);
    if (!method) throw notFound(`No contact method ${id} of yours`);
    return method;
  }

  async create(
    organizationId: number,
    userId: number,
    input: CreateContactMethodInput,
  ): Promise<ContactMethodDocument> {
    // The check and the insert under the lock; the code goes out after it (a slow provider holds
    // nobody else up).
    const { method, code } = await this.deps.mutex.withLock(
      `contact-methods:${organizationId}:${userId}`,
      () => this.added(organizationId, userId, input),
    );
    try {
      await this.sendCode(method, code);
    } catch (error) {
      // A method whose code never left is of no use: nothing half-made stays.
      await this.deps.methods.delete(organizationId, method.id);
      throw error;
    }
    return method;
  }

  private async added(
    organizationId: number,
    userId: number,
    input: CreateContactMethodInput,
  ): Promise<{ method: ContactMethodDocument; code: string }> {
    const existing = await this.list(organizationId, userId);
    if (existing.length >= MAX_METHODS_PER_PERSON)
      throw conflict(`You have ${MAX_METHODS_PER_PERSON} contact methods; remove one first`);
    const address = input.type === 'email' ? input.address.toLowerCase() : input.address;
    if (existing.some((m) => m.type === input.type && m.address === address))
      throw conflict('You have this contact method already', fieldError('address', 'already one of yours'));
    if (!(await this.deps.reach.canReach(organizationId, input.type)))
      throw conflict(
        `Nothing can send to ${METHOD_NOUNS[input.type]} yet: an admin must add ${CARRIER_NEEDED[input.type]}`,
        fieldError('type', `needs ${CARRIER_NEEDED[input.type]}`),
      );
    const { code, pending } = newCode(this.now());
    const method = await this.deps.methods.create({
      organizationId,
      userId,
      type: input.type,
      address,
      label: input.label ?? null,
      hours: input.hours ?? null,
      events: input.events ?? [...CONTACT_EVENTS],
      verifiedAt: null,
      code: pending,
    });
    return { method, code };
  }

  /** A new code (the old one no longer counts), within one a minute and five an hour. */
  async resend(organizationId: number, userId: number, id: number): Promise<ContactMethodDocument> {
    const method = await this.get(organizationId, userId, id);
    if (method.verifiedAt) throw conflict('This contact method is verified already');
    const now = this.now();
    const refusal = sendRefusal(method.code?.sentAt ?? [], now);
    if (refusal)
      throw tooMany(`No new code now: ${refusal.reason}`, 'verification codes', refusal.retryAfterMs / 1000);
    const { code, pending } = newCode(now, method.code?.sentAt ?? []);
    const updated = await this.deps.methods.replace({ ...method, code: pending });
    await this.sendCode(updated, code);
    return updated;
  }

  async verify(
    organizationId: number,
    userId: number,
    id: number,
    guess: string,
  ): Promise<ContactMethodDocument> {
    const method = await this.get(organizationId, userId, id);
    if (method.verifiedAt) return method;
    const now = this.now();
    const pending = method.code;
    switch (checkCode(pending, guess, now)) {
      case 'right':
        if (pending && (await this.deps.methods.markVerified(organizationId, id, pending, now)))
          return { ...method, verifiedAt: now, code: null };
        throw invalidInput(
          'That code was replaced by a newer one',
          fieldError('code', 'enter the newest code'),
        );
      case 'wrong': {
        if (pending) await this.deps.methods.countFailure(organizationId, id, pending);
        const left = MAX_CODE_FAILURES - (pending?.failures ?? 0) - 1;
        throw invalidInput(
          'The code is not right',
          fieldError(
            'code',
            left > 0
              ? `is not the code sent to the address: ${left} ${left === 1 ? 'try' : 'tries'} left`
              : 'is not the code sent to the address, and that was the last try: ask for a new code',
          ),
        );
      }
      case 'expired':
        throw invalidInput('The code has expired', fieldError('code', 'has expired: ask for a new one'));
      case 'exhausted':
        throw invalidInput(
          'Too many wrong codes',
          fieldError('code', 'too many wrong tries: ask for a new one'),
        );
      case 'none':
        throw invalidInput('No code is waiting', fieldError('code', 'ask for a code first'));
    }
  }

  async update(
    organizationId: number,
    userId: number,
    id: number,
    patch: ContactMethodPatch,
  ): Promise<ContactMethodDocument> {
    const method = await this.get(organizationId, userId, id);
    return this.deps.methods.replace({
      ...method,
      ...(patch.label !== undefined && { label: patch.label }),
      ...(patch.hours !== undefined && { hours: patch.hours }),
      ...(patch.events !== undefined && { events: patch.events }),
    });
  }

  async delete(organizationId: number, userId: number, id: number): Promise<void> {
    await this.get(organizationId, userId, id);
    await this.deps.methods.delete(organizationId, id);
  }

  private async sendCode(method: ContactMethodDocument, code: string): Promise<void> {
    const outcome = await this.deps.reach.reach(method.organizationId, method, codeMessage(code));
    if (!outcome.sent)
      throw new DomainError('unavailable', `The code could not be sent: ${outcome.problem}`, {
        errors: fieldError('address', 'the code could not be sent there'),
      });
  }
}
