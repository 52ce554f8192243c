"""The words of generated names: an adjective, an animal and a number ("BraveOtter42").

Both lists are plain, friendly, short English words in a-z (so a generated name is also a
valid username's shape and has no confusable letters of its own).
"""

from __future__ import annotations

__all__ = ["ADJECTIVES", "ANIMALS"]

ADJECTIVES: tuple[str, ...] = tuple(
    """
    able amber ample azure bold brave breezy bright brisk busy calm candid cheery chipper
    clever cosmic crisp curious daring dapper deft eager early easy epic fair fancy fast
    fearless fine fleet fond frank free fresh friendly frosty gentle giddy glad golden
    grand happy hardy hearty honest humble jolly jovial keen kind lively loyal lucky lunar
    merry mighty mellow modest neat nimble noble peppy plucky polite proud quick quiet
    radiant rapid ready regal rosy rustic savvy serene sharp shiny silent silver sleek
    smart snappy snowy solar spry steady stellar sturdy sunny swift tidy tranquil trusty
    upbeat valiant velvet vivid warm wily windy wise witty zany zesty
    """.split()
)

ANIMALS: tuple[str, ...] = tuple(
    """
    badger bat bear beaver bison boar bobcat buffalo camel caribou cat cheetah chipmunk
    cobra condor cougar coyote crane crow deer dingo dolphin donkey dove duck eagle eel
    egret elk falcon ferret finch fox frog gazelle gecko gibbon goat goose gopher gorilla
    grouse gull hare hawk hedgehog heron hippo horse ibex ibis iguana jackal jaguar jay
    kestrel kiwi koala lark lemur leopard lion llama lynx magpie mallard marmot marten
    meerkat mink mole moose moth newt ocelot orca osprey otter owl panda panther parrot
    pelican penguin pigeon puffin puma quail rabbit raven robin salmon seal shark sparrow
    squid stork swan tapir tiger toad toucan trout turtle viper walrus weasel whale wolf
    wombat wren yak zebra
    """.split()
)
