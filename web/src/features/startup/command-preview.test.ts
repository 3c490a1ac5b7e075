import { describe, expect, it } from 'vitest';
import { previewCommand } from '@/features/startup/command-preview';

describe('previewCommand', () => {
  it('should fill each visible variable with the value being typed, in every placeholder spelling', () => {
    expect(previewCommand('java -jar {{SERVER_JARFILE}} --v {{ env.VERSION }} {{server.build.env.VERSION}}', 'unused', { SERVER_JARFILE: 'paper.jar', VERSION: '1.21' })).toBe(
      'java -jar paper.jar --v 1.21 1.21',
    );
  });

  it('should keep what the panel hides hidden and what the node fills in as written', () => {
    const raw = 'run {{SECRET}} -Xmx{{SERVER_MEMORY}}M {{JAR}}';
    const rendered = 'run [hidden] -Xmx{{SERVER_MEMORY}}M old.jar';
    expect(previewCommand(raw, rendered, { JAR: 'new.jar' })).toBe('run [hidden] -Xmx{{SERVER_MEMORY}}M new.jar');
  });

  it('should insert a value literally, dollar signs included', () => {
    expect(previewCommand('echo {{A}}', '', { A: '$& $1' })).toBe('echo $& $1');
  });
});
