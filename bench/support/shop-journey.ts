// The journeys benchmark's journey on the test shop (test/support/test-shop.ts): six steps as a
// person tells them, each one or more actions of the journey format.
import type { BrowserJourneyInput, JourneyStepInput } from '../../libs/journeys/index.js';
import { shopPlaceholders, signInSteps } from '../../test/support/test-shop.js';

/** The six steps of the journey, each with its actions (the format's steps). */
export function shopJourneyPhases(shop: {
  email: string;
}): Array<{ name: string; actions: JourneyStepInput[] }> {
  return [
    {
      name: 'sign in',
      actions: [
        ...(signInSteps(shop) as JourneyStepInput[]),
        // The session cookie is set once the form's answer came back: the next page needs it.
        {
          action: 'expect',
          that: 'text',
          locator: { by: 'css', selector: 'main p' },
          text: { contains: 'Signed in' },
        },
      ],
    },
    {
      name: 'search (the slow call)',
      actions: [
        { action: 'goto', url: '{{shop}}/search' },
        { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: 'teapot' },
        { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
        { action: 'waitFor', until: 'text', text: 'Blue Teapot' },
      ],
    },
    {
      name: 'open a product',
      actions: [
        { action: 'click', locator: { by: 'role', role: 'link', name: 'Blue Teapot' } },
        { action: 'expect', that: 'title', title: { equals: 'Blue Teapot' } },
      ],
    },
    {
      name: 'add to basket',
      actions: [{ action: 'click', locator: { by: 'role', role: 'button', name: 'Add to basket' } }],
    },
    {
      name: 'expect the basket count',
      actions: [
        {
          action: 'expect',
          that: 'text',
          locator: { by: 'css', selector: '#basket-count' },
          text: { equals: '1' },
        },
      ],
    },
    {
      name: 'checkout page',
      actions: [
        { action: 'goto', url: '{{shop}}/checkout' },
        { action: 'expect', that: 'title', title: { equals: 'Checkout' } },
      ],
    },
  ];
}

/** The journey as the API takes it: the shop's address a variable, the password a secret. */
export function shopJourney(shop: { url: string; email: string; password: string }): BrowserJourneyInput {
  return {
    ...shopPlaceholders(shop),
    steps: shopJourneyPhases(shop).flatMap((phase) => phase.actions),
  };
}

/** Which of the six steps each action belongs to (by the action's index). */
export function phaseOfAction(shop: { email: string }): number[] {
  return shopJourneyPhases(shop).flatMap((phase, index) => phase.actions.map(() => index));
}
