import type { Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';
import type { ApiKeyService } from './api-keys.js';
import { decrypt, encrypt } from './encryption.js';

/** The development project: the project of the embedded media endpoint's key pair (decision 0109). */
export const DEV_PROJECT_ID = 'project_dev';
const DEV_KEY_SETTING = 'dev_api_key';

export class ProjectService {
  /** The development project's key, once {@link ensureDevProject} ran in this process. */
  private devKey: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly apiKeys: ApiKeyService,
    private readonly settingsKey: Uint8Array,
  ) {}

  async create(name: string, id: string = newId('project')): Promise<string> {
    await this.store.db.insertInto('projects').values({ id, name, created_at: nowIso(), disabled: 0 }).execute();
    return id;
  }

  async setDisabled(project: string, disabled: boolean): Promise<void> {
    await this.store.db
      .updateTable('projects')
      .set({ disabled: disabled ? 1 : 0 })
      .where('id', '=', project)
      .execute();
    await this.apiKeys.keysChanged();
  }

  /**
   * Ensures the development project and its key exist and returns the key. A configured key is
   * registered when new; otherwise the key generated at first start is kept (sealed) in settings so a
   * file database prints the same key on every start.
   */
  async ensureDevProject(configuredKey: string | undefined): Promise<{ project: string; apiKey: string }> {
    const ensured = await this.ensureDevProjectKey(configuredKey);
    this.devKey = ensured.apiKey;
    return ensured;
  }

  /** The development project's API key ensured at start (`undefined` before), e.g. for the reference's try-it console. */
  developmentKey(): string | undefined {
    return this.devKey;
  }

  private async ensureDevProjectKey(configuredKey: string | undefined): Promise<{ project: string; apiKey: string }> {
    const existing = await this.store.db.selectFrom('projects').select('id').where('id', '=', DEV_PROJECT_ID).executeTakeFirst();
    if (!existing) await this.create('Development', DEV_PROJECT_ID);
    if (configuredKey) {
      if (!(await this.apiKeys.exists(configuredKey))) await this.apiKeys.create(DEV_PROJECT_ID, 'PALAVER_API_KEY', configuredKey);
      return { project: DEV_PROJECT_ID, apiKey: configuredKey };
    }
    const sealed = await this.store.db.selectFrom('settings').select('value').where('key', '=', DEV_KEY_SETTING).executeTakeFirst();
    if (sealed) {
      const key = decrypt(this.settingsKey, sealed.value, DEV_KEY_SETTING);
      if (await this.apiKeys.exists(key)) return { project: DEV_PROJECT_ID, apiKey: key };
    }
    const { key } = await this.apiKeys.create(DEV_PROJECT_ID, 'development');
    await this.store.db.deleteFrom('settings').where('key', '=', DEV_KEY_SETTING).execute();
    await this.store.db
      .insertInto('settings')
      .values({ key: DEV_KEY_SETTING, value: encrypt(this.settingsKey, key, DEV_KEY_SETTING) })
      .execute();
    return { project: DEV_PROJECT_ID, apiKey: key };
  }
}
