// Prompt sinks: the places in the agent and chat APIs people use where a string becomes a system prompt (or other
// prompt text), and the calls whose result is another agent's output. Described once, here, as data: discovery reads
// it, docs/hardening.md's table is checked against it, and each rule names the fixture that exercises it.
import { COMMAND_LINE_AGENTS } from './commandLine';
import type { CodeLanguage } from './lexer';
import type { SinkRole } from './types';


/**
 * How placeholders in a sink's plain strings are filled at run time (`{name}`; `{{ name }}` for Jinja templates;
 * griptape's `{{ parent_output }}`, filled by the framework with the output of the task before).
 */
export type PlaceholderStyle = 'adk-state' | 'template' | 'jinja' | 'griptape';

/**
 * How a rule matches: a call's argument (the default), the `content` of a `{role, content}` dict or object, the second
 * item of a `("system", …)` pair in a list, the `content=` of a Python call that takes its role as a keyword, or the
 * value returned by a decorated function (`@agent.system_prompt`), or the docstring of a class that extends the
 * callee (`class Summarize(dspy.Signature): """…"""`), or an agent CLI's argument or stdin where a process call runs it
 * (commandLine.ts).
 */
export type SinkKind = 'argument' | 'role-dict' | 'role-tuple' | 'role-keyword' | 'decorator' | 'docstring' | 'command-line';

/** What griptape fills a task's `{{ parent_output }}`, `{{ parent_outputs[…] }}`, `{{ parents_output_text }}` with: the tasks before it's output. */
export const GRIPTAPE_PARENT_OUTPUTS = /^parents?_outputs?(?:_text)?$/;

/** One sink of one framework. */
export interface SinkRule {
  kind?: SinkKind;
  framework: string;
  /** The documented form, as shown in docs/hardening.md. */
  form: string;
  languages: readonly CodeLanguage[];
  /** The callee's last name (class, function or method); undefined matches any call. */
  callee?: RegExp;
  /** Alternatively the whole dotted callee (`client.messages.create`). */
  chain?: RegExp;
  /** Keyword argument or object property holding the prompt. */
  key?: string;
  /** Positional argument holding the prompt (when no keyword is given). */
  index?: number;
  /** A role-keyword rule's positional argument holding the role, when no `role=` is given (AgentScope's `Msg(name, content, role)`). */
  roleIndex?: number;
  /** Path of properties under the argument object (`options.systemPrompt`; `*` for any key). */
  path?: readonly string[];
  role: SinkRole;
  /** The call must also pass one of these keywords (CrewAI's Agent has `goal` or `backstory`). */
  requires?: readonly string[];
  /** Keywords that make the framework ignore this one, which is then no prompt (Agno's parts, when `system_message` is given). */
  ignoredWith?: readonly string[];
  /** The callee must be imported from a module this matches (CAMEL's `ChatAgent`, not any class of that name). */
  module?: RegExp;
  placeholders?: PlaceholderStyle;
  /** The fixture under test/fixtures/harden/sinks/ written from the framework's documented API. */
  fixture: string;
}

const PY: readonly CodeLanguage[] = ['python'];
const TS: readonly CodeLanguage[] = ['typescript'];
const BOTH: readonly CodeLanguage[] = ['python', 'typescript'];

/**
 * Keyword arguments and object properties that hold a system prompt in any call: distinctive enough that the
 * callee need not be known (OpenAI Agents, Pydantic AI, Mastra, Semantic Kernel `instructions`; AutoGen
 * `system_message`; ADK `instruction`; Claude Agent SDK `system_prompt`; LangChain `create_agent(system_prompt=)`; MetaGPT
 * `llm.aask(msg, system_msgs=[…])`).
 */
export const SYSTEM_KEYWORDS: readonly string[] = [
  'instructions', 'instruction', 'global_instruction', 'static_instruction', 'system_instruction', 'systemInstruction', 'system_prompt', 'systemPrompt',
  'system_message', 'systemMessage', 'append_system_prompt', 'appendSystemPrompt', 'developer_prompt', 'developerPrompt', 'selector_prompt',
  'system_msgs', 'sys_prompt',
];

/**
 * What an Agno Agent's or Team's system message is built from (unless it is given whole as `system_message`): one
 * prompt, whose warning goes into the first of these the call passes.
 */
const AGNO_PROMPT_PARTS = ['instructions', 'description', 'role', 'expected_output', 'additional_context'];

/** What an Atomic Agents `SystemPromptGenerator` builds the system prompt from, in its order: one prompt, warned in the first. */
const ATOMIC_PROMPT_PARTS = ['background', 'steps', 'output_instructions'];

/** The sink table. */
export const SINK_RULES: readonly SinkRule[] = [
  // Agno: a member a team delegates to often has only a `role=` or a `description=`, and each is part of the prompt.
  ...AGNO_PROMPT_PARTS.map((key): SinkRule => ({ framework: 'Agno', form: `Agent / Team(${key}=…): one prompt with ${AGNO_PROMPT_PARTS.filter((part) => part !== key).join(', ')}`, languages: PY, callee: /^(?:Agent|Team)$/, module: /^agno(?:\.|$)/, key, role: 'system', requires: AGNO_PROMPT_PARTS, ignoredWith: ['system_message'], fixture: 'agno.py' })),
  // OpenAI Agents SDK
  { framework: 'OpenAI Agents SDK', form: 'Agent(instructions=…) — a string or a function returning one', languages: PY, callee: /^(?:Agent|RealtimeAgent|clone)$/, key: 'instructions', role: 'system', fixture: 'openai_agents.py' },
  { framework: 'OpenAI Agents SDK', form: 'prompt_with_handoff_instructions(…)', languages: PY, callee: /^prompt_with_handoff_instructions$/, index: 0, role: 'system', fixture: 'openai_agents.py' },
  { framework: 'OpenAI Agents SDK', form: 'Runner.run(agent, input)', languages: PY, chain: /^Runner\.run(?:_sync|_streamed)?$/, key: 'input', index: 1, role: 'message', fixture: 'openai_agents.py' },
  { framework: 'OpenAI Agents SDK', form: 'new Agent({ instructions })', languages: TS, callee: /^(?:Agent|RealtimeAgent|create|clone)$/, key: 'instructions', role: 'system', fixture: 'openai_agents.ts' },
  { framework: 'OpenAI Agents SDK', form: 'run(agent, input)', languages: TS, callee: /^run$/, index: 1, role: 'message', fixture: 'openai_agents.ts' },
  // OpenAI and compatible chat APIs
  { kind: 'role-dict', framework: 'OpenAI API', form: '{"role": "system" | "developer", "content": …} in messages (any chat API)', languages: BOTH, key: 'content', role: 'system', fixture: 'openai_chat.py' },
  { framework: 'OpenAI API', form: 'responses.create(instructions=…)', languages: BOTH, chain: /responses\.create$/, key: 'instructions', role: 'system', fixture: 'openai_chat.py' },
  { framework: 'OpenAI API', form: 'responses.create(input=…)', languages: BOTH, chain: /responses\.create$/, key: 'input', role: 'message', fixture: 'openai_chat.py' },
  { framework: 'OpenAI API', form: 'beta.assistants.create(instructions=…)', languages: BOTH, chain: /assistants\.(?:create|update)$/, key: 'instructions', role: 'system', fixture: 'openai_chat.ts' },
  // Anthropic
  // Cohere: its chat API's `preamble` (the v1 system prompt), which LangChain's ChatCohere binds (a review's miss in
  // langgraph's adaptive RAG notebook).
  { framework: 'Cohere', form: 'co.chat(preamble=…) / ChatCohere().bind(preamble=…), .bind_tools(…, preamble=…), .with_structured_output(…, preamble=…)', languages: PY, callee: /^(?:chat|chat_stream|bind|bind_tools|with_structured_output)$/, key: 'preamble', role: 'system', fixture: 'cohere.py' },
  { framework: 'Anthropic API', form: 'messages.create(system=…) — a string or text blocks', languages: BOTH, chain: /messages\.(?:create|stream|parse|count_tokens|countTokens)$/, key: 'system', role: 'system', fixture: 'anthropic.py' },
  // LangChain / LangGraph (Python)
  { framework: 'LangChain / LangGraph', form: 'SystemMessage(…) / SystemMessage(content=…)', languages: BOTH, callee: /^SystemMessage$/, key: 'content', index: 0, role: 'system', fixture: 'langchain.py' },
  { framework: 'LangChain / LangGraph', form: 'SystemMessagePromptTemplate.from_template(…)', languages: BOTH, callee: /^(?:from_template|fromTemplate)$/, chain: /SystemMessagePromptTemplate\.(?:from_template|fromTemplate)$/, key: 'template', index: 0, role: 'system', placeholders: 'template', fixture: 'langchain.py' },
  { kind: 'role-tuple', framework: 'LangChain / LangGraph', form: '("system", …) in ChatPromptTemplate.from_messages([...]) or a message list', languages: BOTH, role: 'system', placeholders: 'template', fixture: 'langchain.py' },
  { framework: 'LangChain / LangGraph', form: 'create_react_agent(model, tools, prompt=…) (also state_modifier=, messages_modifier=)', languages: PY, callee: /^create_react_agent$/, key: 'prompt', role: 'system', fixture: 'langgraph.py' },
  { framework: 'LangChain / LangGraph', form: 'create_react_agent(state_modifier=…)', languages: PY, callee: /^create_react_agent$/, key: 'state_modifier', role: 'system', fixture: 'langgraph.py' },
  { framework: 'LangChain / LangGraph', form: 'create_react_agent(messages_modifier=…)', languages: PY, callee: /^create_react_agent$/, key: 'messages_modifier', role: 'system', fixture: 'langgraph.py' },
  { framework: 'LangChain / LangGraph', form: 'create_supervisor(agents, model=…, prompt=…) / create_swarm', languages: PY, callee: /^create_(?:supervisor|swarm)$/, key: 'prompt', role: 'system', fixture: 'langgraph.py' },
  { framework: 'LangChain / LangGraph', form: 'create_agent(model, tools, system_prompt=…) (LangChain 1.0)', languages: PY, callee: /^create_agent$/, key: 'system_prompt', role: 'system', fixture: 'langgraph.py' },
  { framework: 'LangChain / LangGraph', form: 'HumanMessage(…) / PromptTemplate.from_template(…)', languages: BOTH, callee: /^(?:HumanMessage|HumanMessagePromptTemplate|PromptTemplate)$/, key: 'content', index: 0, role: 'message', placeholders: 'template', fixture: 'langchain.py' },
  // LangGraph.js / LangChain.js
  { framework: 'LangGraph.js', form: 'createReactAgent({ llm, tools, prompt })', languages: TS, callee: /^createReactAgent$/, key: 'prompt', role: 'system', fixture: 'langgraph.ts' },
  { framework: 'LangGraph.js', form: 'createReactAgent({ stateModifier })', languages: TS, callee: /^createReactAgent$/, key: 'stateModifier', role: 'system', fixture: 'langgraph.ts' },
  { framework: 'LangGraph.js', form: 'createReactAgent({ messageModifier })', languages: TS, callee: /^createReactAgent$/, key: 'messageModifier', role: 'system', fixture: 'langgraph.ts' },
  { framework: 'LangGraph.js', form: 'createSupervisor({ agents, llm, prompt })', languages: TS, callee: /^create(?:Supervisor|Swarm)$/, key: 'prompt', role: 'system', fixture: 'langgraph.ts' },
  { framework: 'LangGraph.js', form: 'createAgent({ model, tools, systemPrompt }) (LangChain.js 1.0)', languages: TS, callee: /^createAgent$/, key: 'systemPrompt', role: 'system', fixture: 'langgraph.ts' },
  { framework: 'LangGraph.js', form: 'new SystemMessage(…) / new SystemMessage({ content })', languages: TS, callee: /^SystemMessage$/, key: 'content', index: 0, role: 'system', fixture: 'langgraph.ts' },
  // AutoGen / AG2
  { framework: 'AutoGen / AG2', form: 'AssistantAgent(name, model_client, system_message=…) (any agent class)', languages: PY, key: 'system_message', role: 'system', fixture: 'autogen.py' },
  { framework: 'AutoGen / AG2', form: 'agent.update_system_message(…)', languages: PY, callee: /^update_system_message$/, index: 0, role: 'system', fixture: 'autogen.py' },
  { framework: 'AutoGen / AG2', form: 'SelectorGroupChat(selector_prompt=…)', languages: PY, key: 'selector_prompt', role: 'system', fixture: 'autogen.py' },
  { framework: 'AutoGen / AG2', form: 'initiate_chat(recipient, message=…)', languages: PY, callee: /^a?_?initiate_chat$/, key: 'message', role: 'message', fixture: 'autogen.py' },
  { framework: 'AutoGen / AG2', form: 'agent.run(task=…) / run_stream(task=…)', languages: PY, callee: /^run(?:_stream)?$/, key: 'task', role: 'message', fixture: 'autogen.py' },
  { framework: 'AutoGen / AG2', form: 'TextMessage(content=…) / UserMessage(content=…)', languages: PY, callee: /^(?:TextMessage|UserMessage)$/, key: 'content', role: 'message', fixture: 'autogen.py' },
  // CrewAI
  { framework: 'CrewAI', form: 'Agent(role=…, goal=…, backstory=…)', languages: PY, callee: /^Agent$/, key: 'backstory', role: 'system', requires: ['goal', 'backstory'], placeholders: 'template', fixture: 'crewai/crew.py' },
  { framework: 'CrewAI', form: 'Agent(goal=…): with role and backstory, one prompt', languages: PY, callee: /^Agent$/, key: 'goal', role: 'system', requires: ['goal', 'backstory'], placeholders: 'template', fixture: 'crewai/crew.py' },
  { framework: 'CrewAI', form: 'Agent(role=…): with goal and backstory, one prompt', languages: PY, callee: /^Agent$/, key: 'role', role: 'system', requires: ['goal', 'backstory'], placeholders: 'template', fixture: 'crewai/crew.py' },
  { framework: 'CrewAI', form: 'Task(description=…, expected_output=…)', languages: PY, callee: /^Task$/, key: 'description', role: 'message', requires: ['expected_output'], placeholders: 'template', fixture: 'crewai/crew.py' },
  // Google ADK and Gemini
  { framework: 'Google ADK', form: 'Agent / LlmAgent(instruction=…, global_instruction=…) with {state} placeholders', languages: PY, key: 'instruction', role: 'system', placeholders: 'adk-state', fixture: 'adk.py' },
  { framework: 'Google ADK', form: 'LlmAgent(global_instruction=…)', languages: PY, key: 'global_instruction', role: 'system', placeholders: 'adk-state', fixture: 'adk.py' },
  { framework: 'Google ADK', form: 'new LlmAgent({ instruction })', languages: TS, key: 'instruction', role: 'system', placeholders: 'adk-state', fixture: 'adk.ts' },
  { framework: 'Google Gen AI', form: 'GenerateContentConfig(system_instruction=…)', languages: BOTH, key: 'system_instruction', role: 'system', fixture: 'adk.py' },
  // Claude Agent SDK
  { framework: 'Claude Agent SDK', form: 'ClaudeAgentOptions(system_prompt=… | {"type": "preset", "append": …})', languages: PY, key: 'system_prompt', role: 'system', fixture: 'claude_agent_sdk.py' },
  { framework: 'Claude Agent SDK', form: 'AgentDefinition(description=…, prompt=…)', languages: PY, callee: /^AgentDefinition$/, key: 'prompt', role: 'system', fixture: 'claude_agent_sdk.py' },
  { framework: 'Claude Agent SDK', form: 'query(prompt=…)', languages: PY, callee: /^query$/, key: 'prompt', role: 'message', fixture: 'claude_agent_sdk.py' },
  { framework: 'Claude Agent SDK', form: 'query({ prompt })', languages: TS, callee: /^query$/, key: 'prompt', role: 'message', fixture: 'claude_agent_sdk.ts' },
  { framework: 'Claude Agent SDK', form: 'query({ options: { systemPrompt: … | { type: "preset", append } } })', languages: TS, callee: /^query$/, path: ['options', 'systemPrompt'], role: 'system', fixture: 'claude_agent_sdk.ts' },
  { framework: 'Claude Agent SDK', form: 'query({ options: { appendSystemPrompt } })', languages: TS, callee: /^query$/, path: ['options', 'appendSystemPrompt'], role: 'system', fixture: 'claude_agent_sdk.ts' },
  { framework: 'Claude Agent SDK', form: 'options.agents: { name: { description, prompt } }', languages: TS, callee: /^query$/, path: ['options', 'agents', '*', 'prompt'], role: 'system', fixture: 'claude_agent_sdk.ts' },
  // Vercel AI SDK
  { framework: 'Vercel AI SDK', form: 'generateText / streamText / generateObject / streamObject({ system, prompt })', languages: TS, callee: /^(?:generateText|streamText|generateObject|streamObject)$/, key: 'system', role: 'system', fixture: 'vercel_ai.ts' },
  { framework: 'Vercel AI SDK', form: 'generateText({ prompt })', languages: TS, callee: /^(?:generateText|streamText|generateObject|streamObject)$/, key: 'prompt', role: 'message', fixture: 'vercel_ai.ts' },
  { framework: 'Vercel AI SDK', form: 'new Experimental_Agent({ system }) / new ToolLoopAgent({ instructions })', languages: TS, callee: /^(?:Experimental_Agent|Agent|ToolLoopAgent)$/, key: 'system', role: 'system', fixture: 'vercel_ai.ts' },
  // Semantic Kernel
  { framework: 'Semantic Kernel', form: 'ChatCompletionAgent(instructions=…) / ChatHistory(system_message=…)', languages: PY, key: 'instructions', role: 'system', fixture: 'semantic_kernel.py' },
  { framework: 'Semantic Kernel', form: 'chat_history.add_system_message(…)', languages: PY, callee: /^add_(?:system|developer)_message$/, index: 0, role: 'system', fixture: 'semantic_kernel.py' },
  { framework: 'Semantic Kernel', form: 'chat_history.add_user_message(…)', languages: PY, callee: /^add_user_message$/, index: 0, role: 'message', fixture: 'semantic_kernel.py' },
  // Atomic Agents: the system prompt is generated from lists of lines
  ...ATOMIC_PROMPT_PARTS.map((key): SinkRule => ({ framework: 'Atomic Agents', form: `SystemPromptGenerator(${key}=[…]): one prompt with ${ATOMIC_PROMPT_PARTS.filter((part) => part !== key).join(', ')}`, languages: PY, callee: /^SystemPromptGenerator$/, module: /^atomic_agents(?:\.|$)/, key, role: 'system', fixture: 'atomic_agents.py' })),
  // griptape: a PromptTask's input is a Jinja template; `{{ parent_output }}` is the task before it's output
  { framework: 'griptape', form: 'PromptTask("…{{ parent_output }}") / PromptTask(input=…)', languages: PY, callee: /^(?:PromptTask|ToolkitTask|ToolTask)$/, module: /^griptape(?:\.|$)/, key: 'input', index: 0, role: 'message', placeholders: 'griptape', fixture: 'griptape.py' },
  // Upsonic: a Task's description is what the agent is asked (`agent.do(task)` runs it and returns the reply)
  { framework: 'Upsonic', form: 'Task(description=…) / Task("…"), run by agent.do(task)', languages: PY, callee: /^Task$/, module: /^upsonic(?:\.|$)/, key: 'description', index: 0, role: 'message', fixture: 'upsonic.py' },
  // AgentScope: every agent class takes `sys_prompt` (second after `name`); a `Msg` carries its role third.
  { framework: 'AgentScope', form: 'ReActAgent / DialogAgent / …Agent(name, sys_prompt=…)', languages: PY, callee: /Agent$/, module: /^agentscope(?:\.|$)/, key: 'sys_prompt', index: 1, role: 'system', fixture: 'agentscope.py' },
  { kind: 'role-keyword', framework: 'AgentScope', form: 'Msg(name, content, role="system")', languages: PY, callee: /^Msg$/, module: /^agentscope(?:\.|$)/, key: 'content', index: 1, roleIndex: 2, role: 'system', fixture: 'agentscope.py' },
  { kind: 'role-keyword', framework: 'Semantic Kernel / LlamaIndex', form: 'ChatMessageContent(role=AuthorRole.SYSTEM, content=…) / ChatMessage(role=MessageRole.SYSTEM, content=…) (any call, role "system" / "developer")', languages: PY, key: 'content', role: 'system', fixture: 'semantic_kernel.py' },
  // CAMEL
  { framework: 'CAMEL', form: 'ChatAgent(system_message) — a string or BaseMessage.make_assistant_message(content=…)', languages: PY, callee: /^ChatAgent$/, module: /^camel(?:\.|$)/, key: 'system_message', index: 0, role: 'system', fixture: 'camel.py' },
  // DSPy: a signature's instructions head the system message of every module built on it
  { kind: 'docstring', framework: 'DSPy', form: 'class X(dspy.Signature): """…""" — the docstring is its instructions', languages: PY, callee: /^Signature$/, module: /^dspy(?:\.|$)/, role: 'system', fixture: 'dspy.py' },
  { framework: 'DSPy', form: 'dspy.Signature(fields, instructions)', languages: PY, callee: /^Signature$/, module: /^dspy(?:\.|$)/, key: 'instructions', index: 1, role: 'system', fixture: 'dspy.py' },
  { framework: 'DSPy', form: 'signature.with_instructions(…)', languages: PY, callee: /^with_instructions$/, index: 0, role: 'system', fixture: 'dspy.py' },
  // Haystack: a chat generator's messages (Jinja templates when a ChatPromptBuilder fills them)
  { framework: 'Haystack', form: 'ChatMessage.from_system(…)', languages: PY, chain: /(?:^|\.)ChatMessage\.from_system$/, index: 0, key: 'text', role: 'system', placeholders: 'jinja', fixture: 'haystack.py' },
  { framework: 'Haystack', form: 'ChatMessage.from_user(…)', languages: PY, chain: /(?:^|\.)ChatMessage\.from_user$/, index: 0, key: 'text', role: 'message', placeholders: 'jinja', fixture: 'haystack.py' },
  // Pydantic AI, LlamaIndex, Mastra and others that take the same keywords
  { framework: 'Pydantic AI', form: 'Agent(system_prompt=…, instructions=…)', languages: PY, key: 'system_prompt', role: 'system', fixture: 'pydantic_ai.py' },
  { kind: 'decorator', framework: 'Pydantic AI', form: '@agent.system_prompt / @agent.instructions functions (one prompt with the agent\'s own)', languages: PY, callee: /^(?:system_prompt|instructions)$/, role: 'system', fixture: 'pydantic_ai.py' },
  // Agent CLIs run by a process call (skills' helper scripts)
  ...COMMAND_LINE_AGENTS.flatMap((agent) => agent.sinks.map((sink): SinkRule => ({ kind: 'command-line', framework: agent.framework, languages: BOTH, ...sink }))),
];

/** The framework named for a prompt found only as a model call's argument (`agent.run(task)`, no rule of the table). */
export const MODEL_CALL_FRAMEWORK = 'model call';

/** A call whose result is a model's or an agent's output (a delegation source), and where it takes its prompt. */
export interface ModelCall {
  /** The callee's last name. */
  callee: RegExp;
  /** Its result is untrusted, but what it is given is not a prompt (a tool that brings outside content in; an Upsonic Task run). */
  tool?: boolean;
  /** Words one of which the receiver chain must contain (`agent.run`, not `subprocess.run`); undefined: any receiver. */
  receiver?: RegExp;
  /** Receivers that make it something else (`session.execute(sql)`, `graph.query(cypher)`: a database's). */
  notReceiver?: RegExp;
}

const AGENTISH = /(?:^|[._])(?:runner|agents?|team|crew|chat|group_?chat|swarm|assistant|llm|model|chain|graph|workflow|manager|orchestrator|supervisor|planner|researcher|writer|critic|reviewer|editor|coder|analyst|client|openai|anthropic|claude|gemini|engine|executor|query_engine|session|bot|\w*_?agent|\w*Agent)$/i;

const TOOLISH = /(?:^|[._])(?:tavily\w*|exa\w*|serp\w*|serper\w*|brave\w*|duckduckgo\w*|ddgs|google_search|search\w*|web\w*|browser\w*|crawler\w*|scraper\w*|firecrawl\w*|retriever\w*|vectorstore\w*|vector_store\w*|index|\w*_tool|\w*Tool|\w*_client|client)$/i;

/** Calls that return model or agent output. */
export const MODEL_CALLS: readonly ModelCall[] = [
  { callee: /^(?:invoke|ainvoke|batch|abatch|stream|astream|astream_events|kickoff|kickoff_async|kickoff_for_each|initiate_chat|a_initiate_chat|initiate_chats|generate_reply|a_generate_reply|generate_content|generate_content_async|generateContent|generateText|streamText|generateObject|streamObject|completion|acompletion|run_streamed|run_live|on_messages|on_messages_stream|get_response|get_chat_message_content|get_chat_message_contents|receive_response|receive_messages|predict|apredict|call_llm|call_model|ask_llm|chat_completion)$/ },
  { callee: /^create$/, receiver: /(?:completions|messages|responses|model_client|chat|llm|client)$/i },
  // Wrappers named for what they do (`create_chat_completion`, `call_model`, `ask_llm`, `get_completion`, `get_llm_response`).
  // Not `_validate_completion(response)` or `wait_for_crew_completion(kickoff_id)`: a prefix names the model or the act.
  // Not a factory (`create_model(...)`, pydantic's, `get_llm()`): `create` / `get` / `make` / `fetch` name output only with
  // a completion or a response.
  { callee: /^(?:(?:a?sync|openai|llm|model|gpt|azure|litellm|text|chat)_)?(?:chat_)?completions?$|^(?:call|run|send|ask|query|invoke)_\w*?(?:completion|llm|model|gpt|chat|claude|gemini|openai|anthropic)(?:_response|_reply|_answer)?$|^(?:create|get|make|fetch)_\w*?(?:completion(?:_response|_reply|_answer)?|(?:llm|model|gpt|chat|claude|gemini|openai|anthropic)_(?:response|reply|answer|output))$|^(?:call|ask|query|prompt)(?:Llm|LLM|Model|Gpt|GPT|Claude|Gemini|OpenAI)$/ },
  { callee: /^(?:run|arun|run_sync|run_async|run_stream|generate|agenerate|chat|achat|complete|acomplete|stream_chat|astream_chat|step|send_message)$/, receiver: AGENTISH },
  // Upsonic's `agent.do(task)`: its result is the agent's reply; what it is given is a Task, whose description is the prompt.
  { callee: /^(?:do|do_async|print_do|print_do_async)$/, receiver: AGENTISH, tool: true },
  // A query or statement on a database's session, engine, client, graph or connection is no prompt (camel's NebulaGraph).
  { callee: /^(?:query|aquery|execute)$/, receiver: AGENTISH, notReceiver: /(?:^|[._])(?:session|client|graph|db|database|conn|connection|cursor|store)$|(?:^|\.)(?:\w*(?:db|sql)_)?engine$/i },
  // Tools that bring outside content in (web search, fetch, retrieval): what they return is as untrusted as a peer's reply.
  { callee: /^(?:search|asearch|search_async|results|fetch|afetch|scrape|crawl|browse|extract|get_relevant_documents|aget_relevant_documents|similarity_search|asimilarity_search|retrieve|aretrieve)$/, receiver: TOOLISH, tool: true },
];

/** SDKs whose agents take the OpenAI Agents SDK's `Agent(instructions=…)`, by the module the class comes from. */
const SAME_SHAPE_SDKS: readonly [RegExp, string][] = [
  [/^pydantic_ai(?:\.|$)/, 'Pydantic AI'], [/^agno(?:\.|$)/, 'Agno'], [/^@voltagent\//, 'VoltAgent'], [/^@mastra\//, 'Mastra'], [/^strands(?:\.|$)/, 'Strands Agents'],
];

/** The SDKs whose message classes take their role as a keyword (`ChatMessageContent(role=…)`, `ChatMessage(role=…)`). */
const ROLE_KEYWORD_SDKS: readonly [RegExp, string][] = [[/^semantic_kernel(?:\.|$)/, 'Semantic Kernel'], [/^llama_index(?:\.|$)/, 'LlamaIndex']];

/**
 * The framework a sink rule names, or the SDK its callee is imported from where another SDK shares the rule's shape; a
 * message built with its role as a keyword by any call is named by where that call comes from (a TUI's own `ChatMessage`
 * was called "Semantic Kernel / LlamaIndex").
 */
export function sinkFramework(rule: SinkRule, importedFrom: string | undefined): string {
  if (rule.kind === 'role-keyword' && !rule.callee) return ROLE_KEYWORD_SDKS.find(([sdk]) => sdk.test(importedFrom ?? ''))?.[1] ?? sdkNamed(importedFrom) ?? 'any framework';
  if (rule.framework !== 'OpenAI Agents SDK') return rule.framework;
  return sdkNamed(importedFrom) ?? rule.framework;
}

/** The agent SDK a module belongs to (`strands.agent` → "Strands Agents"), among those that share the `Agent(instructions=…)` shape. */
export function sdkNamed(module: string | undefined): string | undefined {
  return module === undefined ? undefined : SAME_SHAPE_SDKS.find(([sdk]) => sdk.test(module))?.[1];
}

/** Agent classes that stand for a person (AgentScope's `UserAgent`): what calling one returns is what the person typed. */
export const HUMAN_AGENTS = /^(?:User|Human)\w*Agent$/;

/** SDKs whose agents are called like functions (`analyzer(f"…")`, `self.agent(task)` runs a Strands agent; `await critic(msg)` an AgentScope one). */
export const CALLABLE_AGENT_SDKS = /^(?:strands|agentscope)(?:\.|$)/;

/** Module names whose bare `query` function is the Claude Agent SDK's (an agent run). */
export const CLAUDE_SDK_MODULES = /^(?:claude_agent_sdk|claude_code_sdk|@anthropic-ai\/claude-agent-sdk|@anthropic-ai\/claude-code)$/;

/** Calls whose value is their first argument (or receiver), for resolution: `dedent(...)`, `.strip()`, `String.raw`. */
export const TRANSPARENT_CALLS = /^(?:repeat|padEnd|padStart|slice|substring|substr|normalize|toLowerCase|toUpperCase|capitalize|title|dedent|cleandoc|indent|outdent|stripIndent|stripIndents|oneLine|oneLineTrim|stripMargin|str|String|strip|lstrip|rstrip|trim|trimStart|trimEnd|trimEnd|replace|replaceAll|format_map|lower|upper|raw|from_template|fromTemplate|PromptTemplate|SystemMessagePromptTemplate|ChatPromptTemplate|Template|prompt_with_handoff_instructions|textwrap|encode|decode|toString|removeprefix|removesuffix|expandtabs|substitute|safe_substitute|render|partial)$/;

/**
 * Callees whose `instructions` are not an agent's prompt: speech, image, audio and embedding generation, and crawlers
 * (`tavily_client.crawl(instructions=…)` steers what it fetches).
 */
export const NOT_AGENT_CALLEES = /speech|tts|audio|image|transcri|video|embed|voice|crawl|scrap/i;

/**
 * Classes whose prompt keyword is a classifier's task, answered with a label, not acted on (Haystack's
 * `LLMMessagesRouter(system_prompt="profanity")` for Granite Guardian, a Llama Guard template): a warning in front
 * changes the verdict. A variable named `router` or `moderator` is no such class: its calls stay model calls.
 */
export const CLASSIFIER_CLASSES = /(?:Router|Classifier|Guard|Guardian)$/;

/**
 * Schemas of an agent's input or output (Atomic Agents' `QueryAgentInputSchema(instruction=…)`, whose `instruction` is
 * the user's request): data the agent is run on or returns, not its configuration. An agent's spec sent elsewhere
 * (swarms' `AgentInput(system_prompt=…)`, an `AgentSchema`) is one.
 */
export const IO_SCHEMAS = /(?:Input|Output)Schema$/;

/** Receivers that fetch or search for content (`tavily_client.crawl(instructions=…)`): their calls' prompt-like arguments steer a crawler, not a model. */
export const FETCHERS = /tool|retriever|vector_?store|(?<![a-z])search|crawl|scrap|tavily|firecrawl/i;

/** Decorators that make a function a tool the model calls (its parameters are the model's choice). */
export const TOOL_DECORATORS = /^(?:tool|function_tool|tool_plain|kernel_function|mcp_tool)$/;

/** Functions that prove a prompt hardened (the runtime API). */
export const HARDENING_CALLS = /^(?:withImmunityWarning|with_immunity_warning)$/;

/**
 * Functions that wrap delegated content in a boundary: the runtime API, and a project's own fence named for untrusted
 * content (agno's `fence_untrusted`, `wrapUntrusted`, `quote_untrusted_text`).
 */
export const BOUNDARY_CALLS = /^(?:wrapDelegatedTask|wrap_delegated_task)$|untrusted/i;

/** Words of a name that carries delegated or peer content on its own (`peer_reply`, `handoff`, `subtask`). */
export const DELEGATION_WORDS = new Set([
  'peer', 'peers', 'delegated', 'delegation', 'delegate', 'subtask', 'subtasks', 'handoff', 'upstream', 'forwarded',
  'relayed', 'inbox', 'incoming', 'neighbor', 'neighbors', 'neighbour', 'neighbours', 'subagent', 'subagents', 'observation', 'observations',
]);

/** Source words that, followed by a content word, name another agent's output (`agent_output`, `workerResult`). */
export const SOURCE_WORDS = new Set([
  'agent', 'agents', 'worker', 'workers', 'child', 'teammate', 'sender', 'remote', 'previous', 'prior', 'tool', 'llm', 'model', 'assistant',
  'ai', 'crew', 'team', 'researcher', 'research', 'writer', 'critic', 'reviewer', 'planner', 'analyst', 'coder', 'expert', 'specialist', 'supervisor',
  'manager', 'orchestrator', 'search', 'retrieved', 'retrieval', 'web',
]);

/** Content words (see SOURCE_WORDS). */
export const CONTENT_WORDS = new Set([
  'output', 'outputs', 'reply', 'replies', 'response', 'responses', 'message', 'messages', 'result', 'results', 'answer', 'answers',
  'report', 'text', 'content', 'agent', 'agents', 'summary', 'findings', 'notes', 'feedback', 'critique', 'review', 'draft', 'plan', 'analysis',
  'docs', 'documents', 'context', 'data', 'observation',
]);

/** True when a callee matches a model/agent call (or, with `tools`, a tool bringing content in), given its last name and receiver chain. */
export function isModelCall(name: string, receiver: string, tools = true): boolean {
  return MODEL_CALLS.some((rule) => (tools || !rule.tool) && rule.callee.test(name) && (!rule.receiver || rule.receiver.test(receiver)) && !rule.notReceiver?.test(receiver));
}

/** True when a method name is a model/agent call on a receiver that is an agent or a model (whatever it is named). */
export function isAgentMethod(name: string): boolean {
  return MODEL_CALLS.some((rule) => rule.receiver === AGENTISH && rule.callee.test(name));
}

/** Constructors whose instances are agents, models or teams (`roulette = Agent(...)`, `llm = ChatOpenAI(...)`). */
export const AGENT_CONSTRUCTORS = /(?:Agent|Crew|Team|GroupChat|Runner|Swarm|Supervisor|Chat[A-Z]\w*|OpenAIGenerator|\w*LLM|LLM\w*|OpenAI|AsyncOpenAI|Anthropic|AsyncAnthropic|Client|Model|Kernel)$/;

/** Chat helpers that build or hold messages rather than answer them (Haystack's `ChatPromptBuilder`, `ChatMessageStore`). */
export const NOT_AGENT_CONSTRUCTORS = /(?:Builder|Template|Messages?|History|Prompt|Parser|Formatter|Memory|Store)$/;

/**
 * Methods that configure or copy an agent rather than run it (`writer_agent.clone(tools=…)`, `agent.as_tool(…)`), or
 * build its input or settings (Atomic Agents' `agent.input_schema(chat_message=…)` makes the message it is then run on).
 */
export const AGENT_BUILDER_METHODS = /^(?:clone|copy|model_copy|deepcopy|deep_copy|as_tool|as_tools|with_\w+|bind_\w+|to_\w+|from_\w+|set_\w+|add_\w+|register\w*|\w*[sS]chema|\w*[cC]onfig)$/;

/** Classes named for an agent's role (`GPTResearcher`, `ReportWriter`): outside the project, any method of theirs returns its work. */
export const AGENT_ROLE_CLASSES = /(?:Agent|Researcher|Writer|Reviewer|Editor|Planner|Critic|Analyst|Summari[sz]er|Assistant)$/;
