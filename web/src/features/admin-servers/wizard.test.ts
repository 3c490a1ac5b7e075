import { describe, expect, it } from 'vitest';
import type { Egg } from '@/features/admin-servers/api';
import { CUSTOM_IMAGE, emptyForm, intProblem, placeError, reviewWarnings, stepOfField, toCreateBody, withEgg } from '@/features/admin-servers/wizard';
import { ApiError } from '@/lib/api/api-error';

const egg: Egg = {
  id: 'e1',
  nestId: 'n1',
  name: 'Paper',
  dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
  dockerImages: [
    { name: 'Java 17', image: 'ghcr.io/pterodactyl/yolks:java_17' },
    { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
  ],
  startup: 'java -jar {{SERVER_JARFILE}}',
  variables: [{ id: 'v1', eggId: 'e1', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', name: 'Jar', description: '', envVariable: 'SERVER_JARFILE', defaultValue: 'server.jar', userViewable: true, userEditable: true, rules: 'required' }],
};

describe('withEgg', () => {
  it("should fill in the egg's image, startup command and variable defaults", () => {
    const form = withEgg(emptyForm(), egg);
    expect(form).toMatchObject({ eggId: 'e1', image: 'ghcr.io/pterodactyl/yolks:java_21', startup: 'java -jar {{SERVER_JARFILE}}', environment: { SERVER_JARFILE: 'server.jar' } });
  });

  it('should open the custom image when the egg lists no images', () => {
    expect(withEgg(emptyForm(), { ...egg, dockerImages: [] })).toMatchObject({ image: CUSTOM_IMAGE, customImage: 'ghcr.io/pterodactyl/yolks:java_21' });
  });
});

describe('toCreateBody', () => {
  it('should send numbers, the OOM killer as oom_disabled, the custom image, and no primary among the extras', () => {
    const form = { ...withEgg(emptyForm(), egg), name: ' Lobby ', ownerId: '2', nodeId: '1', allocationId: '10', extraAllocationIds: ['10', '11'], memory: '2048', image: CUSTOM_IMAGE, customImage: ' my/image:1 ' };
    const body = toCreateBody(form);
    expect(body).toMatchObject({ name: 'Lobby', owner_id: '2', node_id: '1', egg_id: 'e1', memory: 2048, oom_disabled: true, allocation_id: '10', additional_allocation_ids: ['11'], docker_image: 'my/image:1' });
    expect(body).not.toHaveProperty('description');
    expect(body).not.toHaveProperty('threads');
    expect(toCreateBody({ ...form, oomKiller: true, threads: '0-1' })).toMatchObject({ oom_disabled: false, threads: '0-1' });
  });
});

describe('placeError', () => {
  const describe_ = (e: ApiError) => `text of ${e.code}`;
  it('should put field errors on their fields and go to the first step holding one', () => {
    const error = new ApiError(400, 'VALIDATION_FAILED', 'bad', 'r1', [
      { field: 'memory', message: 'too big' },
      { field: 'environment.SERVER_JARFILE', message: 'must end in .jar' },
    ]);
    expect(placeError(error, describe_)).toEqual({ step: 'variables', fields: { memory: 'too big', 'environment.SERVER_JARFILE': 'must end in .jar' } });
  });

  it('should place the codes that name a field, and keep the rest on the review', () => {
    expect(placeError(new ApiError(409, 'ALLOCATION_UNAVAILABLE', 'taken'), describe_)).toEqual({ step: 'node', fields: { allocation_id: 'text of ALLOCATION_UNAVAILABLE' } });
    expect(placeError(new ApiError(404, 'USER_NOT_FOUND', 'gone'), describe_).step).toBe('details');
    expect(placeError(new ApiError(502, 'DAEMON_HTTP_ERROR', 'refused'), describe_)).toEqual({ step: 'review', fields: {} });
    expect(placeError(new Error('x'), describe_)).toEqual({ step: 'review', fields: {} });
  });

  it('should know the step of every field', () => {
    expect(['name', 'owner_id', 'node_id', 'additional_allocation_ids', 'docker_image', 'environment.X', 'threads', 'backup_limit'].map(stepOfField)).toEqual([
      'details', 'details', 'node', 'node', 'egg', 'variables', 'limits', 'limits',
    ]);
  });
});

describe('intProblem', () => {
  it('should want a whole number within bounds', () => {
    expect(intProblem('', 0, 10)).toBe('required');
    expect(intProblem(1.5, 0, 10)).toBe('integer');
    expect(intProblem(-2, -1, 10)).toBe('range');
    expect(intProblem('7', 0, 10)).toBeNull();
  });
});

describe('reviewWarnings', () => {
  it('should warn of no databases, no backups and the primary address alone with the defaults', () => {
    expect(reviewWarnings({ ...emptyForm(), allocationId: '10' })).toEqual([
      { key: 'databases', limit: 0 },
      { key: 'backups', limit: 0 },
      { key: 'addresses', limit: 0 },
    ]);
  });

  it('should warn of nothing when the server gets databases, backups and an extra address', () => {
    expect(reviewWarnings({ ...emptyForm(), allocationId: '10', extraAllocationIds: ['11'], databaseLimit: '1', backupLimit: 2 })).toEqual([]);
  });

  it('should not warn of addresses when its users may add one, and count the primary among the extras as none', () => {
    const form = { ...emptyForm(), databaseLimit: 1, backupLimit: 1, allocationId: '10' };
    expect(reviewWarnings({ ...form, allocationLimit: 2 })).toEqual([]);
    expect(reviewWarnings({ ...form, allocationLimit: 1, extraAllocationIds: ['10'] })).toEqual([{ key: 'addresses', limit: 1 }]);
    expect(reviewWarnings({ ...form, databaseLimit: '' })).toEqual([{ key: 'addresses', limit: 0 }]);
  });
});
