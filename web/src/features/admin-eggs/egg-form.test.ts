import { describe, expect, it } from 'vitest';
import { configText, imageRows, imagesBody, jsonProblem, lines, readEggDocument } from '@/features/admin-eggs/egg-form';

describe('readEggDocument', () => {
  it('should give the parsed object of a JSON egg file, a byte-order mark ignored', () => {
    expect(readEggDocument('\uFEFF{"meta":{"version":"PTDL_v2"},"name":"Paper"}')).toEqual({ document: { meta: { version: 'PTDL_v2' }, name: 'Paper' } });
  });

  it.each([
    ['not JSON', '{"name": "Paper",', 'notJson'],
    ['empty', '', 'notJson'],
    ['an array', '[1, 2]', 'notObject'],
    ['a string', '"egg"', 'notObject'],
    ['null', 'null', 'notObject'],
  ])('should name the problem of a file that is %s', (_label, text, problem) => {
    expect(readEggDocument(text)).toEqual({ problem });
  });
});

describe('docker images', () => {
  const images = [
    { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
    { name: 'Java 17', image: 'ghcr.io/pterodactyl/yolks:java_17' },
  ];

  it('should mark the row of the default image', () => {
    expect(imageRows('ghcr.io/pterodactyl/yolks:java_17', images).map((r) => r.isDefault)).toEqual([false, true]);
  });

  it('should add the default image as a first row when the list lacks it, and mark only the first of two rows on one image', () => {
    expect(imageRows('debian:12', images)[0]).toEqual({ name: 'debian:12', image: 'debian:12', isDefault: true });
    const twice = [images[0], { name: 'Latest', image: images[0].image }];
    expect(imageRows(images[0].image, twice).map((r) => r.isDefault)).toEqual([true, false]);
  });

  it('should give dockerImage and the trimmed list back, and refuse blank, repeated or default-less rows', () => {
    const rows = imageRows(images[1].image, images).map((r) => ({ ...r, name: ` ${r.name} ` }));
    expect(imagesBody(rows)).toEqual({ dockerImage: images[1].image, dockerImages: images });
    expect(imagesBody([])).toEqual({ problem: 'imagesEmpty' });
    expect(imagesBody([{ name: 'a', image: ' ', isDefault: true }])).toEqual({ problem: 'imageBlank', row: 0 });
    expect(imagesBody([...rows, { name: 'Java 21', image: 'x', isDefault: false }])).toEqual({ problem: 'imageNameTaken', row: 2 });
    expect(imagesBody(rows.map((r) => ({ ...r, isDefault: false })))).toEqual({ problem: 'imageNoDefault' });
  });
});

describe('config JSON', () => {
  it('should lay out parsed JSON and keep text as it is', () => {
    expect(configText({ done: 'ready' })).toBe('{\n    "done": "ready"\n}');
    expect(configText('{"a":1}')).toBe('{"a":1}');
    expect(configText(null)).toBe('{}');
  });

  it('should refuse what the panel refuses: text that is not JSON, and a non-object where an object is needed', () => {
    expect(jsonProblem('{"a":', false)).toBe('jsonInvalid');
    expect(jsonProblem('[]', true)).toBe('jsonNotObject');
    expect(jsonProblem('[]', false)).toBeUndefined();
    expect(jsonProblem('{}', true)).toBeUndefined();
  });

  it('should split a list field into trimmed non-blank lines', () => {
    expect(lines(' eula \r\n\njava_version\n')).toEqual(['eula', 'java_version']);
  });
});
