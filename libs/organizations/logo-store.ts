import { createHash } from 'node:crypto';
import { Binary, type Collection, type Db } from 'mongodb';

/** The largest logo kept (it is inlined into every report and e-mail). */
export const MAX_LOGO_BYTES = 256 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** The first bytes each type starts with: a file is what it says, never an SVG with script in it. */
const SIGNATURES: Record<LogoType, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export const isLogoOfType = (bytes: Buffer, type: LogoType) => SIGNATURES[type](bytes);

interface LogoDocument {
  _id: number;
  contentType: LogoType;
  data: Binary;
  sha256: string;
  updatedAt: Date;
}

export interface Logo {
  contentType: LogoType;
  data: Buffer;
  sha256: string;
}

/** Each organization's logo, one document by its id. */
export class LogoStore {
  private readonly logos: Collection<LogoDocument>;

  constructor(db: Db) {
    this.logos = db.collection<LogoDocument>('organization_logos');
  }

  async put(organizationId: number, contentType: LogoType, data: Buffer): Promise<Logo> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    await this.logos.replaceOne(
      { _id: organizationId },
      { contentType, data: new Binary(data), sha256, updatedAt: new Date() },
      { upsert: true },
    );
    return { contentType, data, sha256 };
  }

  async get(organizationId: number): Promise<Logo | null> {
    const found = await this.logos.findOne({ _id: organizationId });
    return (
      found && { contentType: found.contentType, data: Buffer.from(found.data.buffer), sha256: found.sha256 }
    );
  }

  async remove(organizationId: number): Promise<void> {
    await this.logos.deleteOne({ _id: organizationId });
  }
}
