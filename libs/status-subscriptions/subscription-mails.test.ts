import { describe, expect, it } from 'vitest';
import { confirmationMail, welcomeMail } from './subscription-mails.js';

describe('subscription mails', () => {
  it('confirm in English unless the page speaks another language', () => {
    const english = confirmationMail({ pageTitle: 'Acme', confirmUrl: 'https://s.test/c', hours: 48 });
    expect(english.subject).toBe('Confirm your subscription to Acme');
    const german = confirmationMail({
      pageTitle: 'Acme <&>',
      confirmUrl: 'https://s.test/c?a=1&b=2',
      hours: 48,
      language: 'de',
    });
    expect(german.subject).toBe('Bestätigen Sie Ihr Abonnement von Acme <&>');
    expect(german.text).toContain('Der Link ist 48 Stunden gültig.');
    expect(german.html).toContain('„Acme &#60;&#38;&#62;“');
    expect(german.html).toContain('href="https://s.test/c?a=1&#38;b=2">Abonnement bestätigen</a>');
  });

  it('welcome in the page’s language, the page linked and the unsubscribe headers set', () => {
    const mail = welcomeMail({
      pageTitle: 'Acme $& <b>',
      pageUrl: 'https://s.test',
      unsubscribeUrl: 'https://s.test/u',
      language: 'fr',
    });
    expect(mail.subject).toBe('Abonnement à Acme $& <b>');
    expect(mail.html).toContain(
      '<p>Vous êtes abonné à la page d’état <a href="https://s.test">Acme $&#38; &#60;b&#62;</a>.</p>',
    );
    expect(mail.headers?.['List-Unsubscribe']).toBe('<https://s.test/u>');
  });
});
