import { describe, expect, it } from 'vitest';
import { cssSelectorProblem } from './css-selector.js';

describe('cssSelectorProblem', () => {
  it.each([
    '#email',
    'button',
    '*',
    '.btn.btn-primary',
    'form#login > input[type="password"]',
    'ul li:nth-child(2)',
    'li:nth-child(2n + 1 of .item)',
    'tr:nth-last-of-type(-n+3)',
    'li:nth-of-type(odd)',
    'a[href^="https://"], a[href$=".pdf" i]',
    '[data-test=submit]',
    "[aria-label='Close dialog']",
    'div:not(.hidden):has(> img)',
    'label:is(.a, .b) ~ input:where(:focus, :hover)',
    'p::first-line',
    'input::placeholder',
    'a:before',
    'x-widget::part(label)',
    '#\\31 23',
    '.a\\:b',
    '--custom-ident',
    'input:-webkit-autofill',
    'button:has-text("Sign in")',
    "article:text-is('Basket')",
    'div:text-matches("order \\\\d+", "i")',
    ':nth-match(li:visible, 2)',
    'input:right-of(:text("Email"), 120)',
    'span:lang(en, "de-DE")',
    'p:dir(rtl)',
    ':host',
    ':host(.dark) button',
    '  main  article + aside  ',
    'café',
  ])('takes %s', (selector) => {
    expect(cssSelectorProblem(selector)).toBeNull();
  });

  it.each([
    ['div >', 'ends where more should follow'],
    ['> div', 'unexpected ">" at character 1'],
    ['div >> span', 'unexpected ">" at character 6'],
    ['text=Sign in', 'unexpected "=" at character 5'],
    ['//div[@id="x"]', 'unexpected "/" at character 1'],
    ['#1abc', '"#" must be followed by a name'],
    ['.', '"." must be followed by a name'],
    ['a[href', 'ends where more should follow'],
    ['a[href="x]', 'is not closed'],
    ['a[="x"]', 'unexpected "=" at character 3'],
    ['li:nth-child', 'needs an argument'],
    ['li:nth-child(2x)', 'unexpected "x"'],
    ['li:nth-child(foo)', 'needs a position such as 2, odd or 2n+1'],
    ['a:hovr', '":hovr" is not a pseudo-class'],
    ['a::befor', '"::befor" is not a pseudo-element'],
    ['a:hover(1)', '":hover" takes no argument'],
    ['div:not()', 'unexpected ")"'],
    ['div:not(.a', 'ends where more should follow'],
    ['div, , p', 'unexpected ","'],
    ['div)', 'unexpected ")"'],
    ['svg|rect', 'unexpected "|"'],
    [':nth-match(li)', 'needs a selector and a position'],
    ['a\\', 'must escape something'],
    ['   ', 'ends where more should follow'],
    ['div {color: red}', 'unexpected "{"'],
  ])('refuses %s: %s', (selector, why) => {
    const problem = cssSelectorProblem(selector);
    expect(problem).toMatch(/^Must be a CSS selector: /);
    expect(problem).toContain(why);
  });
});
