import { partPlan } from 'src/modules/backups/hosts/backup-storage';

const MIB = 1024 * 1024;

describe(partPlan.name, () => {
  it('should cut at the host part size, the last part taking the rest', () => {
    expect(partPlan(11 * MIB, 5)).toEqual({ partSize: 5 * MIB, count: 3 });
    expect(partPlan(10 * MIB, 5)).toEqual({ partSize: 5 * MIB, count: 2 });
    expect(partPlan(1, 128)).toEqual({ partSize: 128 * MIB, count: 1 });
  });

  it('should raise the part size, in whole MiB, when more than 10,000 parts would be needed', () => {
    // 100 GiB at 5 MiB would be 20,480 parts.
    const { partSize, count } = partPlan(100 * 1024 * MIB, 5);
    expect(partSize).toBe(11 * MIB);
    expect(count).toBeLessThanOrEqual(10_000);
    expect(partSize * count).toBeGreaterThanOrEqual(100 * 1024 * MIB);
    // 5 TiB, S3's largest object, still fits in 10,000 parts of at most 5 GiB.
    const most = partPlan(5 * 1024 * 1024 * MIB, 5);
    expect(most.count).toBeLessThanOrEqual(10_000);
    expect(most.partSize).toBeLessThanOrEqual(5 * 1024 * MIB);
  });
});
