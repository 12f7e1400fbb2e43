// A writer agent built with the OpenAI Agents SDK.
import { Agent } from '@openai/agents';

export const writer = new Agent({
  name: 'writer',
  instructions: "You write the final answer in plain English.\nCite your sources.",
});
