// The editor's own language models (vscode.lm) as a ChatTransport, used only from a user action. No structured output
// there: replies are plain text held to the same JSON schema by our validation.
import { createHash } from 'node:crypto';
import { errorMessage } from '../../core/errors';
import { llmNotice } from '../../core/llm/messages';
import * as vscode from 'vscode';
import { TransportError, type ChatReply, type ChatRequest, type ChatTransport, type ReplyFormat } from '../../node/llm/transport';

/** Picks the editor model matching `family` (any chat model when empty); undefined when none is available. */
export async function selectEditorModel(family: string | undefined): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels(family ? { family } : {});
  return models[0];
}

/** Sends the judge and filter prompts to an editor language model. */
export class VsCodeLmTransport implements ChatTransport {
  readonly formats: readonly ReplyFormat[] = ['text'];
  readonly model: string;
  readonly cacheScope: string;

  /** `cacheSalt`: the user's secret for the reply cache (it sits in the workspace, where a repository can commit entries). */
  constructor(
    private readonly chat: vscode.LanguageModelChat,
    cacheSalt: string,
  ) {
    this.model = `vscode-lm:${chat.id}`;
    this.cacheScope = createHash('sha256').update(`vscode-lm\0${chat.id}\0${cacheSalt}`).digest('hex');
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatReply> {
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // vscode.lm has no system role: the instructions go first as a user message, the data blocks after them.
      const messages = request.messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content)));
      const response = await this.chat.sendRequest(messages, { justification: llmNotice.lmJustification }, cancel.token);
      let content = '';
      for await (const part of response.text) content += part;
      return { content, promptTokens: 0, completionTokens: 0 };
    } catch (error) {
      if (signal?.aborted || error instanceof vscode.CancellationError) throw new TransportError('aborted', 'cancelled');
      if (error instanceof vscode.LanguageModelError) {
        if (error.code === vscode.LanguageModelError.NoPermissions.name) throw new TransportError('auth', llmNotice.lmNoPermission);
        if (error.code === vscode.LanguageModelError.Blocked.name) throw new TransportError('rate-limit', llmNotice.lmBlocked);
        if (error.code === vscode.LanguageModelError.NotFound.name) throw new TransportError('bad-request', llmNotice.lmNotFound);
      }
      throw new TransportError('server', llmNotice.lmFailed(errorMessage(error)));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }
}
