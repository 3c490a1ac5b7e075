import { describe, expect, it } from 'vitest';
import { createProviderBody, emptyProviderForm, updateProviderBody, withType } from '@/features/auth-providers/provider-form';

describe('provider form', () => {
  it('should fill a preset’s name and scopes when its type is picked, keeping what was typed', () => {
    const github = withType(emptyProviderForm(), 'github');
    expect(github).toMatchObject({ name: 'GitHub', scopes: 'read:user user:email' });
    expect(withType({ ...github, name: 'Our GitHub' }, 'discord')).toMatchObject({ name: 'Our GitHub', scopes: 'identify email' });
  });

  it('should send the issuer only for OpenID Connect, split lists, and keep an unchanged secret out of an update', () => {
    const form = { ...emptyProviderForm(), name: 'IdP', issuer: ' https://id.example.com ', clientId: 'c', clientSecret: 's', allowedDomains: 'Example.com, corp.example.com' };
    expect(createProviderBody(form)).toMatchObject({ issuer: 'https://id.example.com', scopes: ['openid', 'email', 'profile'], allowedDomains: ['example.com', 'corp.example.com'] });
    expect(createProviderBody(withType(form, 'google'))).not.toHaveProperty('issuer');
    expect(updateProviderBody({ ...form, clientSecret: '' })).not.toHaveProperty('clientSecret');
    expect(updateProviderBody(form)).not.toHaveProperty('type');
  });
});
