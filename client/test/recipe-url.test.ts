// recipeLookupUrl (section 4.2): scheme, host and path only; scheme and host for hosted checkouts whose
// path carries a session token.
import { describe, expect, it } from 'vitest';
import { recipeLookupUrl, SESSION_PATH_CHECKOUT_HOSTS } from '../index.js';

describe('recipeLookupUrl', () => {
  it.each([
    ['https://www.acme.com/checkout?step=2&coupon=x#pay', 'https://www.acme.com/checkout'],
    ['https://www.acme.com/checkout', 'https://www.acme.com/checkout'],
    ['https://jane:secret@www.acme.com/cart', 'https://www.acme.com/cart'],
    ['HTTPS://WWW.ACME.COM/Cart', 'https://www.acme.com/Cart'],
    ['https://www.acme.com', 'https://www.acme.com/'],
    ['http://127.0.0.1:8080/checkout?x=1', 'http://127.0.0.1:8080/checkout'],
    ['https://checkout.payco.com/s/sess_8f2a9c/pay?locale=en', 'https://checkout.payco.com'],
    ['https://checkout.stripe.com/c/pay/cs_live_a1b2c3#fidkdWxOYHwn', 'https://checkout.stripe.com'],
    ['https://checkout.shopify.com/1234/checkouts/abcd?key=k', 'https://checkout.shopify.com'],
    ['https://CHECKOUT.PAYCO.COM./s/sess', 'https://checkout.payco.com.'],
    ['www.acme.com/checkout?session=abc', 'www.acme.com/checkout'],
    ['not a url#fragment', 'not a url'],
    ['', ''],
  ])('when the page is %j, then %j is sent', (page, expected) => {
    expect(recipeLookupUrl(page)).toBe(expected);
  });

  it('when the caller names another session-path host, then it too is cut to scheme and host', () => {
    expect(recipeLookupUrl('https://pay.example.net/session/xyz', ['pay.example.net'])).toBe('https://pay.example.net');
    expect(recipeLookupUrl('https://pay.example.net/session/xyz')).toBe('https://pay.example.net/session/xyz');
  });

  it('when the list is read, then it cannot be changed', () => {
    expect(Object.isFrozen(SESSION_PATH_CHECKOUT_HOSTS)).toBe(true);
    expect(SESSION_PATH_CHECKOUT_HOSTS).toContain('checkout.payco.com');
  });
});
