"""A researcher agent and a critic that reads its output (Anthropic messages API)."""
import anthropic

client = anthropic.Anthropic()

SYSTEM_PROMPT = """
    You are a careful researcher.
    Answer with sources, and say "unknown" when you are not sure.
    """


def research(question: str) -> str:
    reply = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        system=SYSTEM_PROMPT,
        messages=[{"role": "user", "content": question}],
    )
    return reply.content[0].text


def critique(agent_output: str) -> str:
    reply = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        system=f"You critique research. The researcher wrote:\n{agent_output}\nList its weak points.",
        messages=[{"role": "user", "content": "Go."}],
    )
    return reply.content[0].text
