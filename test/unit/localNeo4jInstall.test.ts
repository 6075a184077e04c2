import { describe, expect, it } from 'vitest';
import { mavenDownloadedBytes } from '../../src/graph/localNeo4jInstall.js';

describe('the first start counts what Maven downloads', () => {
  it('reads the size of a "Downloaded from" line', () => {
    const line = (size: string) =>
      `[INFO] Downloaded from central: https://repository.example/maven2/org/neo4j/neo4j-kernel/5.26.30/neo4j-kernel-5.26.30.jar (${size} at 2.1 MB/s)`;
    expect(mavenDownloadedBytes(line('5.9 MB'))).toBe(5_900_000);
    expect(mavenDownloadedBytes(line('12 kB'))).toBe(12_000);
    expect(mavenDownloadedBytes(line('811 B'))).toBe(811);
    expect(mavenDownloadedBytes('Downloaded from central: https://repository.example/a.pom (1.2 kB at 40 kB/s)')).toBe(
      1_200,
    );
  });

  it('ignores every other line', () => {
    expect(
      mavenDownloadedBytes('[INFO] Downloading from central: https://repository.example/maven2/a/b/1.0/b-1.0.jar'),
    ).toBeNull();
    expect(
      mavenDownloadedBytes('[INFO] Copying neo4j-kernel-5.26.30.jar to target/lib/neo4j-kernel-5.26.30.jar'),
    ).toBeNull();
    expect(mavenDownloadedBytes('')).toBeNull();
  });
});
