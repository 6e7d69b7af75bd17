import type { CreateToolDefinitionRequest, ToolDefinition } from '../../../contract/tools.js';
import type { ServerConfig } from '../../kernel/config.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { assertLiteralAddressAllowed } from '../llms/literal-address.js';

type ToolData = Omit<ToolDefinition, 'id'>;

/** Tool definitions: functions the agent's LLM may call, delivered to a web URL or to the client app. */
export class ToolService {
  private readonly documents: DocumentStore<ToolData>;

  /** `addressPolicy`: the LLM gateway's flags, which also govern where tool web requests may go. */
  constructor(
    store: Store,
    private readonly addressPolicy: Pick<ServerConfig['llm'], 'allowLoopback' | 'allowPrivateNetworks'>,
  ) {
    this.documents = new DocumentStore(store, 'tool');
  }

  /** Refuses a web_request URL whose host is a literal address the policy does not allow (400). */
  private assertDestination(input: CreateToolDefinitionRequest): void {
    const destination = input.call_settings.destination;
    if (destination.type !== 'web_request') return;
    assertLiteralAddressAllowed('call_settings.destination.url', destination.url, {
      allowLoopback: this.addressPolicy.allowLoopback,
      allowPrivateNetworks: this.addressPolicy.allowPrivateNetworks,
    });
  }

  private toTool(document: StoredDocument<ToolData>): ToolDefinition {
    return { id: document.id, ...document.data };
  }

  /** `callSettingsId` keeps the call settings' id stable across updates of the same tool. */
  private dataOf(input: CreateToolDefinitionRequest, callSettingsId: string): ToolData {
    return {
      name: input.name,
      description: input.description,
      parameters: input.parameters.map((parameter) => ({
        name: parameter.name,
        description: parameter.description,
        type: parameter.type,
        required: parameter.required,
        ...(parameter.default !== undefined ? { default: parameter.default } : {}),
      })),
      call_settings: {
        id: callSettingsId,
        destination:
          input.call_settings.destination.type === 'web_request' ? { type: 'web_request', url: input.call_settings.destination.url } : { type: 'client_app' },
      },
    };
  }

  async create(principal: Principal, input: CreateToolDefinitionRequest): Promise<ToolDefinition> {
    this.assertDestination(input);
    const data = this.dataOf(input, newId('callsettings'));
    const document = await this.documents.insert(
      { id: newId('tool'), project: principal.project, human: ownerOf(principal), name: data.name, data },
      undefined,
      quotaFor(principal),
    );
    return this.toTool(document);
  }

  /**
   * A tool definition by id, as the caller sees it.
   *
   * @example
   * const tool = await services.tools.retrieve(principal, 'tool_01...');
   */
  async retrieve(principal: Principal, id: string): Promise<ToolDefinition> {
    return this.toTool(found(await this.documents.find(id, scopeOf(principal)), 'tool', id));
  }

  /** Replaces the definition (the request is a full CreateToolDefinitionRequest). */
  async update(principal: Principal, id: string, input: CreateToolDefinitionRequest): Promise<ToolDefinition> {
    const scope = scopeOf(principal);
    const current = found(await this.documents.find(id, scope), 'tool', id);
    assertWritable(current, principal, 'tool');
    this.assertDestination(input);
    const data = this.dataOf(input, current.data.call_settings.id);
    const updated = await this.documents.replace(id, scope, data, { name: data.name });
    return this.toTool(found(updated, 'tool', id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const scope = scopeOf(principal);
    const current = found(await this.documents.find(id, scope), 'tool', id);
    assertWritable(current, principal, 'tool');
    await this.documents.delete(id, scope);
  }

  /** Definitions by id or name (a ToolGroup's `tools`), in the order asked; unknown references are left out. */
  async findByReferences(principal: Principal, references: readonly string[]): Promise<ToolDefinition[]> {
    const scope = scopeOf(principal);
    let byName: Map<string, ToolDefinition> | undefined;
    const result: ToolDefinition[] = [];
    for (const reference of references) {
      const byId = await this.documents.find(reference, scope);
      if (byId) {
        result.push(this.toTool(byId));
        continue;
      }
      byName ??= new Map(
        (await this.documents.all(scope)).map((document) => {
          const tool = this.toTool(document);
          return [tool.name, tool] as const;
        }),
      );
      const named = byName.get(reference);
      if (named) result.push(named);
    }
    return result;
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<ToolDefinition>> {
    const result = await this.documents.list(scopeOf(principal), page);
    return { ...result, values: result.values.map((document) => this.toTool(document)) };
  }
}
