// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Base64} from "./Base64.sol";

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

/// An ERC-721 (EIP-721) collection for the local chains with its metadata on chain: `tokenURI` is a
/// `data:` URL of JSON whose image is an SVG drawn from the id, so wallets show real images offline.
/// No owner: anyone mints (ids from 1 up), one token at a time or as an airdrop to many addresses.
contract DoorwayCollectible {
    string public name;
    string public symbol;
    uint256 public totalSupply;

    // token `id` is called "<itemName> #<id>" and its image says `label`; all three are the deployer's
    // constants, written into the JSON unescaped
    string private itemName;
    string private label;
    string private description;

    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    // eight background colours (hex, 6 characters each); the id picks one
    bytes private constant PALETTE = "e76f51f4a2612a9d8f264653457b9d8e7dc5b5838de9c46a";

    constructor(string memory name_, string memory symbol_, string memory itemName_, string memory label_, string memory description_) {
        name = name_;
        symbol = symbol_;
        itemName = itemName_;
        label = label_;
        description = description_;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x80ac58cd // ERC-721
            || interfaceId == 0x5b5e139f; // ERC-721 Metadata
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "ERC721: address zero is not a valid owner");
        return balances[owner];
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        require(owner != address(0), "ERC721: invalid token ID");
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return approvals[tokenId];
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "ERC721: approve caller is not token owner or approved for all");
        approvals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address owner = ownerOf(tokenId);
        require(owner == from, "ERC721: transfer from incorrect owner");
        require(to != address(0), "ERC721: transfer to the zero address");
        require(
            msg.sender == owner || isApprovedForAll[owner][msg.sender] || approvals[tokenId] == msg.sender,
            "ERC721: caller is not token owner or approved"
        );
        // EIP-721: the approved address is reset on transfer (no Approval event needed)
        delete approvals[tokenId];
        unchecked {
            balances[from] -= 1;
        }
        balances[to] += 1;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        // EIP-721: a contract receives only if it answers onERC721Received with that function's selector
        if (to.code.length > 0) {
            try IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data) returns (bytes4 answer) {
                require(answer == IERC721Receiver.onERC721Received.selector, "ERC721: transfer to non ERC721Receiver implementer");
            } catch {
                revert("ERC721: transfer to non ERC721Receiver implementer");
            }
        }
    }

    // Not a safe mint (no receiver check), as EIP-721 allows for creation.
    function mint(address to) public returns (uint256 id) {
        require(to != address(0), "ERC721: mint to the zero address");
        id = ++totalSupply;
        balances[to] += 1;
        owners[id] = to;
        emit Transfer(address(0), to, id);
    }

    /// One token to each address in a single transaction the receivers did not send: what spam looks like.
    function airdrop(address[] calldata to) external {
        for (uint256 i = 0; i < to.length; i++) mint(to[i]);
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        string memory id = toString(tokenId);
        string memory json = string.concat(
            '{"name":"', itemName, " #", id, '","description":"', description,
            '","image":"data:image/svg+xml;base64,', Base64.encode(image(tokenId, id)), '"}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    // A door on a coloured ground, the label above it and the number below.
    function image(uint256 tokenId, string memory id) private view returns (bytes memory) {
        string memory text = '<text x="120" font-family="sans-serif" font-size="20" font-weight="bold" text-anchor="middle" fill="#fff" y=';
        return bytes.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240">',
            '<rect width="240" height="240" fill="#', colour(tokenId), '"/>',
            '<rect x="80" y="56" width="80" height="144" rx="8" fill="#4a2c1a"/>',
            '<rect x="92" y="70" width="56" height="52" rx="4" fill="#6b4226"/>',
            '<circle cx="146" cy="136" r="5" fill="#f6c945"/>',
            bytes(text), '"38">', bytes(label), "</text>",
            bytes(text), '"226">#', bytes(id), "</text></svg>"
        );
    }

    function colour(uint256 tokenId) private pure returns (bytes memory hex6) {
        hex6 = new bytes(6);
        uint256 start = (tokenId % 8) * 6;
        for (uint256 i = 0; i < 6; i++) hex6[i] = PALETTE[start + i];
    }

    function toString(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 v = value; v != 0; v /= 10) digits++;
        bytes memory text = new bytes(digits);
        for (; value != 0; value /= 10) text[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(text);
    }
}
